// Fetches must not reach the machine itself or its local network by default (a page could otherwise make
// the agent read a router admin page or a cloud metadata service). Every hop's host is resolved and each
// address checked against the private, loopback, link-local and other non-public ranges.
import { lookup } from "node:dns/promises";
import { isIPv4, isIPv6 } from "node:net";

function v4Parts(ip: string): number[] {
  return ip.split(".").map(Number);
}

function isPrivateV4(ip: string): boolean {
  const [a = 0, b = 0] = v4Parts(ip);
  return (
    a === 0 || // "this" network
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local (cloud metadata lives here)
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && v4Parts(ip)[2] === 0) || // IETF protocol assignments
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  );
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail is allowed). */
function v6Groups(ip: string): number[] {
  let s = ip.split("%")[0] ?? ip; // drop a zone id
  const lastColon = s.lastIndexOf(":");
  const tail = s.slice(lastColon + 1);
  if (isIPv4(tail)) {
    const [a = 0, b = 0, c = 0, d = 0] = v4Parts(tail);
    s = `${s.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((h) => Number.parseInt(h, 16)));
  const [head = "", rest] = s.split("::");
  const h = parse(head);
  if (rest === undefined) return h;
  const r = parse(rest);
  return [...h, ...new Array<number>(Math.max(0, 8 - h.length - r.length)).fill(0), ...r];
}

function isPrivateV6(ip: string): boolean {
  const g = v6Groups(ip);
  const [g0 = 0, , , , , g5 = 0, g6 = 0, g7 = 0] = g;
  if (g.every((x) => x === 0)) return true; // ::
  if (g.slice(0, 7).every((x) => x === 0) && g7 === 1) return true; // ::1
  const embedded = `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`;
  if (g.slice(0, 5).every((x) => x === 0) && g5 === 0xffff) return isPrivateV4(embedded); // ::ffff:a.b.c.d
  if (g0 === 0x64 && g[1] === 0xff9b) return isPrivateV4(embedded); // NAT64
  return (
    (g0 & 0xfe00) === 0xfc00 || // unique local
    (g0 & 0xffc0) === 0xfe80 || // link-local
    (g0 & 0xff00) === 0xff00 // multicast
  );
}

/** True for addresses that are not on the public internet. */
export function isPrivateAddress(ip: string): boolean {
  if (isIPv4(ip)) return isPrivateV4(ip);
  if (isIPv6(ip)) return isPrivateV6(ip);
  return true; // not an address at all: refuse rather than guess
}

/**
 * Why `url` may not be fetched, or undefined when it may. Resolves the host name. fetch() resolves it
 * again, so a DNS server that answers differently on the second lookup could still slip a private
 * address through; the check stops ordinary links and redirects to local services, which is its job.
 */
export async function refusalReason(url: URL, allowPrivate: boolean): Promise<string | undefined> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `only http and https URLs can be fetched, not ${url.protocol.replace(":", "")}`;
  }
  if (allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  if (isIPv4(host) || isIPv6(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch (err) {
      return `cannot resolve ${host}: ${(err as Error).message}`;
    }
  }
  const bad = addresses.find(isPrivateAddress);
  return bad === undefined
    ? undefined
    : `${host} is a private or local address (${bad}); set "allow_private": true in web.json to allow it`;
}
