import * as OTPAuth from 'otpauth';
import { signIn } from './support/admin';
import { ageConfirmations } from './support/store-database';
import { expect, test } from './support/test';

// One invited account for the file: it joins, enrols, signs in with a code, and is reset, in that order.
test.describe.configure({ mode: 'serial' });

const NEW_ADMIN = 'e2e-invited@shop.example';
const NEW_PASSWORD = 'a long password for the invited admin';
let totp: OTPAuth.TOTP;
let recoveryCodes: string[] = [];

test('the owner invites by link; the invited admin joins and turns two-factor sign-in on', async ({
  page,
  browser,
}) => {
  await signIn(page);
  await page.getByRole('tab', { name: 'Team' }).click();
  const invite = page.getByRole('region', { name: 'Invite someone' });
  await invite.getByLabel('Email', { exact: true }).fill(NEW_ADMIN);
  await invite.getByLabel('Role').selectOption('staff');
  await invite.getByLabel('Email the link').uncheck();
  await invite.getByRole('button', { name: 'Invite' }).click();
  const link = (await page.getByTestId('invite-link').textContent()) ?? '';
  expect(link).toMatch(/\/admin\/invite#[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId('open-invite').filter({ hasText: NEW_ADMIN })).toBeVisible();

  const other = await browser.newContext();
  try {
    const newcomer = await other.newPage();
    await newcomer.goto(link);
    await expect(newcomer.getByRole('heading', { name: 'Join the admin' })).toBeVisible();
    await expect(newcomer.getByText(`invites ${NEW_ADMIN} as staff`)).toBeVisible();
    await newcomer.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await newcomer.getByLabel('Repeat password').fill(NEW_PASSWORD);
    await newcomer.getByRole('button', { name: 'Create account' }).click();
    await expect(newcomer).toHaveURL(/\/admin\/dashboard$/);
    await expect(newcomer.getByTestId('admin-role')).toHaveText('Staff');

    await newcomer.goto('/admin/profile');
    await newcomer.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await expect(newcomer.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    const key = ((await newcomer.getByTestId('manual-key').textContent()) ?? '').replace(/\s/g, '');
    totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key) });
    await newcomer.getByLabel('Code from the app').fill('000000');
    await newcomer.getByRole('button', { name: 'Turn on' }).click();
    await expect(newcomer.getByText('That code is not right')).toBeVisible();
    await newcomer.getByLabel('Code from the app').fill(totp.generate());
    await newcomer.getByRole('button', { name: 'Turn on' }).click();
    const codes = newcomer.getByTestId('recovery-code');
    await expect(codes).toHaveCount(10);
    recoveryCodes = await codes.allTextContents();
    await newcomer.getByRole('button', { name: 'I have saved them' }).click();
    await expect(newcomer.getByTestId('two-factor-status')).toContainText('10 of 10 recovery codes left');
  } finally {
    await other.close();
  }
});

test('signing in takes the password and then a code; a later guarded action asks again', async ({ page }) => {
  await page.goto('/admin');
  await page.getByLabel('Email').fill(NEW_ADMIN);
  await page.getByLabel('Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  const code = page.getByLabel('Code from your authenticator app');
  await code.fill('123456');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert')).toHaveText('That code is not right, or it has been used already.');
  // The next time step's code: the enrolment's own may not be used twice.
  await code.fill(totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);

  // Ten minutes on (the session's confirmation made old in the database), new recovery codes need a code:
  // the dialog asks, and the action goes on once it is given.
  await ageConfirmations(NEW_ADMIN);
  await page.goto('/admin/profile');
  await page.getByRole('button', { name: 'New recovery codes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Code from your authenticator app')).toBeFocused();
  await dialog.getByLabel('Code from your authenticator app').fill(recoveryCodes[0] ?? '');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog).toHaveCount(0);
  const fresh = page.getByTestId('recovery-code');
  await expect(fresh).toHaveCount(10);
  expect(await fresh.allTextContents()).not.toContain(recoveryCodes[1]);
});

test('the owner resets the invited admin’s two-factor sign-in', async ({ page }) => {
  await signIn(page);
  await page.getByRole('tab', { name: 'Team' }).click();
  const row = page.getByTestId('team-row').filter({ hasText: NEW_ADMIN });
  await expect(row.getByRole('cell', { name: 'On' })).toBeVisible();
  page.once('dialog', (d) => void d.accept());
  await row.getByRole('button', { name: `Reset two-factor sign-in of ${NEW_ADMIN}` }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Two-factor sign-in reset' })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Off' })).toBeVisible();
});
