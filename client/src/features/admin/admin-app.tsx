import { Route, Switch } from 'wouter';
import { AboutContent } from '../../components/site/about-content';
import { AdminGuard } from './admin-guard';
import { AdminLayout } from './admin-layout';
import { DashboardPage } from './dashboard-page';
import { LoginPage } from './login-page';
import { LogsPage } from './logs-page';
import { ProfilePage } from './profile-page';

/** Everything under /admin, loaded as its own chunk so shoppers never download it. */
export default function AdminApp() {
  return (
    <AdminLayout>
      <Switch>
        <Route path="/admin" component={LoginPage} />
        <Route path="/admin/dashboard">
          <AdminGuard>
            <DashboardPage />
          </AdminGuard>
        </Route>
        <Route path="/admin/profile">
          <AdminGuard>
            <ProfilePage />
          </AdminGuard>
        </Route>
        <Route path="/admin/about">
          <AdminGuard>
            <AboutContent />
          </AdminGuard>
        </Route>
        <Route path="/admin/logs">
          <AdminGuard>
            <LogsPage />
          </AdminGuard>
        </Route>
      </Switch>
    </AdminLayout>
  );
}
