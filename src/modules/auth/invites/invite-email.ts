import { emailDocument, escapeHtml, oneLine, style } from '../../email/email-layout.js';
import type { RenderedEmail, StoreIdentity } from '../../email/order-emails.js';

/** The invitation's email: who invites, to what role, the link and until when it works. */
export function inviteEmail(d: {
  store: StoreIdentity;
  invitedBy: string;
  role: 'owner' | 'staff';
  link: string;
  expiresAt: string;
}): RenderedEmail {
  const subject = oneLine(`You are invited to the admin of ${d.store.name}`, 300);
  const what = d.role === 'owner' ? 'as an owner' : 'as staff (products and orders)';
  const until = new Date(d.expiresAt).toUTCString();
  const why = `${d.invitedBy} invited you. If you did not expect this, ignore this email: nothing happens without the link.`;
  const html = emailDocument({
    title: subject,
    storeName: d.store.name,
    body: [
      `<h1 style="${style.h1}">Join the admin of ${escapeHtml(d.store.name)}</h1>`,
      `<p style="${style.p}">You are invited to work in the shop's admin ${escapeHtml(what)}. Choose a password to make your account.</p>`,
      `<p style="${style.p}"><a href="${escapeHtml(d.link)}" style="${style.button}">Accept the invitation</a></p>`,
      `<p style="${style.muted}">The link works once, until ${escapeHtml(until)}.</p>`,
    ].join('\n'),
    footer: `<p style="${style.muted}">${escapeHtml(why)}</p>`,
  });
  const text = [
    `Join the admin of ${d.store.name}`,
    '',
    `You are invited to work in the shop's admin ${what}. Choose a password to make your account:`,
    d.link,
    '',
    `The link works once, until ${until}.`,
    '',
    why,
  ].join('\n');
  return { subject, html, text };
}
