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
