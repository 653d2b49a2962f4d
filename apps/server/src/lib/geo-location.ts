// Where a client address is, for the download log (spec §2 "Device Location"). The default database is the
// public-domain country database shipped as an npm package (@ip-location-db, CC0); GEOIP_DB names a
// MaxMind-format file instead (e.g. GeoLite2-City), read the same way. Never a failure: 'Unknown'.
import { createRequire } from 'node:module';
import maxmind, { type CityResponse, type Reader } from 'maxmind';

export const UNKNOWN_LOCATION = 'Unknown';

/** What the two database shapes carry: ip-location-db's `country_code`, MaxMind's `country` / `city`. */
interface LocationRecord {
  country_code?: string;
  country?: { iso_code?: string; names?: Record<string, string> };
  city?: { names?: Record<string, string> };
}

export interface GeoLocator {
  locate(ip: string): string;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function countryName(code: string | undefined): string | undefined {
  if (!code) return undefined;
  try {
    return regionNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

class MmdbLocator implements GeoLocator {
  constructor(private readonly reader: Reader<CityResponse>) {}

  locate(ip: string): string {
    if (!maxmind.validate(ip)) return UNKNOWN_LOCATION;
    let record: LocationRecord | null;
    try {
      record = this.reader.get(ip) as LocationRecord | null;
    } catch {
      return UNKNOWN_LOCATION;
    }
    const country = record?.country?.names?.en ?? countryName(record?.country?.iso_code ?? record?.country_code);
    const city = record?.city?.names?.en;
    if (!country) return UNKNOWN_LOCATION;
    return city ? `${city}, ${country}` : country;
  }
}

const NOWHERE: GeoLocator = { locate: () => UNKNOWN_LOCATION };

export const DEFAULT_GEOIP_DB = createRequire(import.meta.url).resolve(
  '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb',
);

const opened = new Map<string, Promise<GeoLocator>>();

/**
 * The locator for a database file, opened once per process (tests build many apps). A file that cannot be read
 * leaves every location 'Unknown' and says so once in the log, rather than stopping downloads.
 */
export function openGeoLocator(file: string, onError: (err: unknown) => void): Promise<GeoLocator> {
  let locator = opened.get(file);
  if (!locator) {
    locator = maxmind.open<CityResponse>(file).then(
      (reader) => new MmdbLocator(reader),
      (err: unknown) => {
        onError(err);
        return NOWHERE;
      },
    );
    opened.set(file, locator);
  }
  return locator;
}
