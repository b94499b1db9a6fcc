import { Route, Switch } from 'wouter';
import './admin.css';
import { AboutContent } from '../../components/site/about-content';
import { paths } from '../../lib/paths';
import { InvitePage } from './account/invite-page';
import { LoginPage } from './account/login-page';
import { ProfilePage } from './account/profile-page';
import { ConfirmIdentityDialog } from './account/two-factor/confirm-identity-dialog';
import { AdminGuard } from './admin-guard';
import { AdminLayout } from './admin-layout';
import { DashboardPage } from './dashboard-page';
import { LogsPage } from './logs-page';
import { PackingSlipPage } from './orders/packing-slip-page';
import { ReturnPackingSlipPage } from './returns/return-packing-slip-page';

/** Everything under /admin, loaded as its own chunk so shoppers never download it. */
export default function AdminApp() {
  return (
    <AdminLayout>
      <ConfirmIdentityDialog />
      <Switch>
        <Route path={paths.admin()} component={LoginPage} />
        <Route path={paths.adminInvite()} component={InvitePage} />
        <Route path={paths.adminDashboard()}>
          <AdminGuard>
            <DashboardPage />
          </AdminGuard>
        </Route>
        <Route path={paths.adminProfile()}>
          <AdminGuard>
            <ProfilePage />
          </AdminGuard>
        </Route>
        <Route path={paths.adminAbout()}>
          <AdminGuard>
            <AboutContent />
          </AdminGuard>
        </Route>
        <Route path={paths.adminLogs()}>
          <AdminGuard>
            <LogsPage />
          </AdminGuard>
        </Route>
        <Route path="/admin/orders/:id/packing-slip">
          <AdminGuard>
            <PackingSlipPage />
          </AdminGuard>
        </Route>
        <Route path="/admin/returns/:id/packing-slip">
          <AdminGuard>
            <ReturnPackingSlipPage />
          </AdminGuard>
        </Route>
      </Switch>
    </AdminLayout>
  );
}
