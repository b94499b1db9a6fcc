import { z } from 'zod';

/** What the admin sees of an order email's delivery (the outbox row's status). */
export const EMAIL_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type EmailStatusName = (typeof EMAIL_STATUSES)[number];

export const EMAIL_STATUS_LABEL: Record<EmailStatusName, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
};

export const emailListInput = z.object({
  orderId: z.string().trim().min(1).max(100).optional(),
  status: z.enum(EMAIL_STATUSES).optional(),
  cursor: z.number().int().min(0).max(1_000_000).nullish(),
  limit: z.number().int().min(1).max(100).default(25),
});

export const emailIdInput = z.object({ id: z.string().trim().min(1).max(100) });
