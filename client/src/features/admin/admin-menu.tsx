import { Menu, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { keepFocusInside } from '../../components/ui/modal';
import { paths } from '../../lib/paths';
import { formatDuration, formatLoginTime } from './account/session-time';
import { useSignedInAdmin } from './account/use-account';

/**
 * The admin menu: a side drawer built on the native <dialog>, which traps focus, closes on Escape and
 * returns focus to the menu button without any script of ours.
 */
export function AdminMenu() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const session = useSignedInAdmin().data;

  const close = () => dialog.current?.close();

  return (
    <>
      <button
        type="button"
        onClick={() => {
          dialog.current?.showModal();
          setOpen(true);
        }}
        className="inline-flex h-10 w-10 items-center justify-center rounded-full text-ink hover:bg-sand"
        aria-label="Open admin menu"
        aria-haspopup="dialog"
        aria-expanded={open}
      >
        <Menu aria-hidden="true" className="h-5 w-5" />
      </button>
      <dialog
        ref={dialog}
        onClose={() => setOpen(false)}
        onKeyDown={keepFocusInside}
        onClick={(e) => {
          // A click on the backdrop (the dialog element itself, outside its panel) closes it.
          if (e.target === dialog.current) close();
        }}
        aria-labelledby="admin-menu-title"
        className="fixed inset-y-0 left-0 m-0 h-full max-h-none w-72 max-w-[85vw] bg-ivory p-0 text-ink shadow-xl backdrop:bg-ink/40"
      >
        <div className="flex h-full flex-col">
          <div className="flex items-center justify-between border-b border-stone-line px-5 py-4">
            <h2 id="admin-menu-title" className="font-serif text-xl">
              Menu
            </h2>
            <button
              type="button"
              onClick={close}
              className="rounded-full p-2 hover:bg-sand"
              aria-label="Close menu"
            >
              <X aria-hidden="true" className="h-5 w-5" />
            </button>
          </div>
          <nav aria-label="Admin" className="flex-1 px-3 py-4">
            <ul className="space-y-1">
              <MenuLink href={paths.home()} onNavigate={close}>
                Home
              </MenuLink>
              <MenuLink href={session ? paths.adminDashboard() : paths.admin()} onNavigate={close}>
                Admin
              </MenuLink>
              {session ? (
                <>
                  <MenuLink href={paths.adminProfile()} onNavigate={close}>
                    View Profile
                  </MenuLink>
                  <MenuLink href={paths.adminAbout()} onNavigate={close}>
                    About
                  </MenuLink>
                </>
              ) : null}
            </ul>
          </nav>
          {session && open ? <SessionClock loginAt={session.loginAt} /> : null}
        </div>
      </dialog>
    </>
  );
}

function MenuLink({
  href,
  onNavigate,
  children,
}: {
  href: string;
  onNavigate: () => void;
  children: string;
}) {
  return (
    <li>
      <Link href={href} onClick={onNavigate} className="block rounded-lg px-3 py-2 hover:bg-sand">
        {children}
      </Link>
    </li>
  );
}

function SessionClock({ loginAt }: { loginAt: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <dl className="border-t border-stone-line px-5 py-4 text-xs text-muted" data-testid="session-clock">
      <div className="flex justify-between gap-2">
        <dt>Logged in</dt>
        <dd data-testid="login-time">{formatLoginTime(loginAt)}</dd>
      </div>
      <div className="mt-1 flex justify-between gap-2">
        <dt>Session</dt>
        <dd data-testid="session-duration" className="font-mono">
          {formatDuration(loginAt, now)}
        </dd>
      </div>
    </dl>
  );
}
