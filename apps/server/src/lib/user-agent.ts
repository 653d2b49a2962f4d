// A browser's User-Agent in the words of the download history (spec §2: Device, Device Type, Browser, OS).
// ua-parser-js 1.x: MIT licensed (2.x is AGPL, which would bind the whole service).
import { UAParser } from 'ua-parser-js';

export interface ClientDevice {
  browser: string;
  os: string;
  device: string;
  deviceType: string;
}

const UNKNOWN = 'Unknown';
const join = (...parts: (string | undefined)[]): string => parts.filter(Boolean).join(' ');

export function describeUserAgent(userAgent: string | undefined): ClientDevice {
  if (!userAgent) return { browser: UNKNOWN, os: UNKNOWN, device: UNKNOWN, deviceType: UNKNOWN };
  const { browser, os, device } = new UAParser(userAgent).getResult();
  // ua-parser names no type for ordinary computers; a known desktop OS without one is a desktop.
  const deviceType = device.type ?? (os.name ? 'desktop' : UNKNOWN);
  return {
    browser: join(browser.name, browser.major) || UNKNOWN,
    os: join(os.name, os.version) || UNKNOWN,
    device: join(device.vendor, device.model) || (deviceType === 'desktop' ? 'Computer' : UNKNOWN),
    deviceType,
  };
}
