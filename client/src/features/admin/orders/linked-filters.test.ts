import { describe, expect, it } from 'vitest';
import { paths } from '../../../lib/paths';
import { linkedOrderFilters } from './linked-filters';

describe('linkedOrderFilters', () => {
  it('reads the filters the Overview links to', () => {
    const link = paths.adminOrders({ method: 'cash_on_delivery', step: 'shipped' });
    expect(link).toBe('/admin/dashboard?tab=orders&method=cash_on_delivery&step=shipped');
    expect(linkedOrderFilters(link.split('?')[1] ?? '')).toEqual({
      status: '',
      method: 'cash_on_delivery',
      step: 'shipped',
    });
  });

  it('leaves out what is not set', () => {
    expect(paths.adminOrders({ step: 'awaiting_confirmation' })).toBe(
      '/admin/dashboard?tab=orders&step=awaiting_confirmation',
    );
    expect(linkedOrderFilters('tab=orders')).toEqual({ status: '', method: '', step: '' });
  });

  it('takes unknown values for "any"', () => {
    expect(linkedOrderFilters('status=stolen&method=barter&step=%27%3B--')).toEqual({
      status: '',
      method: '',
      step: '',
    });
  });
});

describe('the other lists the Overview links to', () => {
  it('names the returns of one status and the log at one level', () => {
    expect(paths.adminReturns('requested')).toBe('/admin/dashboard?tab=returns&status=requested');
    expect(paths.adminLogs('error')).toBe('/admin/logs?level=error');
    // The route itself is unchanged.
    expect(paths.adminLogs()).toBe('/admin/logs');
  });
});
