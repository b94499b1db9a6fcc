export type Credit = { role: string; name: string };

export type Banner = { title: string; description: string | null; imageUrl: string | null };

export type VersionRecord = { version: string; environment: string; notes: string | null; updatedAt: string };

export type SiteSettings = {
  storeName: string;
  tagline: string;
  aboutText: string;
  disclaimer: string;
  credits: Credit[];
  specialOrderUrl: string | null;
  contactUrl: string | null;
  /** null when no banner is configured; present but inactive banners are not sent to shoppers. */
  banner: (Banner & { active: boolean }) | null;
  version: VersionRecord | null;
};

/** The accessibility statement's title and description: the server's head and the client's must agree. */
export const ACCESSIBILITY_PAGE = {
  title: 'Accessibility statement',
  description:
    'The accessibility standard this store aims for (WCAG 2.2 level AA), how it is tested, what is known to fall short and how to report a problem.',
} as const;
