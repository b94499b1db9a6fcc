import { trpc } from './trpc';

export function useSiteSettings() {
  return trpc.site.settings.useQuery(undefined, { staleTime: 10 * 60 * 1000 });
}
