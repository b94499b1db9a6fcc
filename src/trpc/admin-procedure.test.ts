import { describe, expect, it } from 'vitest';
import { createTestStore, SESSION_FACTS } from '../test-support/test-store.js';
import { adminProcedure, createCallerFactory, router } from './init.js';

describe('adminProcedure', () => {
  const probe = router({ secret: adminProcedure.query(({ ctx }) => ctx.admin.email) });
  const createCaller = createCallerFactory(probe);

  it('rejects a caller without a signed-in admin', async () => {
    const store = await createTestStore();
    try {
      await expect(createCaller(store.context()).secret()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    } finally {
      await store.cleanup();
    }
  });

  it('hands the procedure a context whose admin is set', async () => {
    const store = await createTestStore();
    try {
      const caller = createCaller(
        store.context({
          admin: {
            id: 1,
            email: 'owner@shop.example',
            loginAt: '2026-11-22T10:00:00.000Z',
            role: 'owner' as const,
            ...SESSION_FACTS,
          },
        }),
      );
      await expect(caller.secret()).resolves.toBe('owner@shop.example');
    } finally {
      await store.cleanup();
    }
  });
});
