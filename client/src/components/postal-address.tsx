import type { PostalAddress as Address } from '@shared/orders';
import { countryName } from '../lib/country-name';

/** An address on its lines, as a parcel label reads: name, street, town and postcode, country. */
export function PostalAddress({ address, className = '' }: { address: Address; className?: string }) {
  const town = [address.city, address.state, address.postalCode].filter(Boolean).join(' ');
  const lines = [address.name, address.line1, address.line2, town, countryName(address.country)].filter(
    (l): l is string => Boolean(l),
  );
  return (
    <address className={`not-italic ${className}`}>
      {lines.map((line, i) => (
        // Lines of one address never reorder: the index is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above.
        <span key={i} className="block">
          {line}
        </span>
      ))}
    </address>
  );
}
