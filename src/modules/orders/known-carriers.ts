/**
 * Tracking pages of the carriers shops use most, so a tracking number alone gives the shopper a link. An
 * admin's own link always wins; an unknown carrier gets none rather than a guess.
 */
const TRACKING_PAGES: Array<{ names: RegExp; url: (n: string) => string }> = [
  { names: /^ups$/i, url: (n) => `https://www.ups.com/track?tracknum=${n}` },
  { names: /^usps$/i, url: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}` },
  { names: /^fed ?ex$/i, url: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}` },
  { names: /^dhl( express)?$/i, url: (n) => `https://www.dhl.com/en/express/tracking.html?AWB=${n}` },
  { names: /^royal mail$/i, url: (n) => `https://www.royalmail.com/track-your-item#/tracking-results/${n}` },
  {
    names: /^canada post$/i,
    url: (n) => `https://www.canadapost-postescanada.ca/track-reperage/en#/details/${n}`,
  },
  { names: /^australia post$/i, url: (n) => `https://auspost.com.au/mypost/track/details/${n}` },
  { names: /^(tcs|tcs express)$/i, url: (n) => `https://www.tcsexpress.com/track/${n}` },
];

export function trackingUrlFor(carrier: string, trackingNumber: string): string | null {
  const page = TRACKING_PAGES.find((p) => p.names.test(carrier.trim()));
  return page ? page.url(encodeURIComponent(trackingNumber.trim())) : null;
}
