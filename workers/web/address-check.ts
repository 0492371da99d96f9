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

function v4Of(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/**
 * The IPv4 address an IPv6 address carries, for the forms that route to (or stand for) it: IPv4-mapped
 * ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96, 6to4
 * 2002:AABB:CCDD::/48 and Teredo 2001:0::/32 (client address inverted in the last 32 bits).
 */
function embeddedV4(g: number[]): string | undefined {
  const [g0 = 0, g1 = 0, g2 = 0, , g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g5 === 0xffff) return v4Of(g6, g7);
  if (zeros(0, 6)) return v4Of(g6, g7);
  if (zeros(0, 4) && g4 === 0xffff && g5 === 0) return v4Of(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && zeros(2, 6)) return v4Of(g6, g7);
  if (g0 === 0x2002) return v4Of(g1, g2);
  if (g0 === 0x2001 && g1 === 0) return v4Of(g6 ^ 0xffff, g7 ^ 0xffff);
  return undefined;
}

function isPrivateV6(ip: string): boolean {
  const g = v6Groups(ip);
  const [g0 = 0, g1 = 0, g2 = 0] = g;
  if (g.every((x) => x === 0)) return true; // ::
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true; // ::1
  const v4 = embeddedV4(g);
  if (v4 !== undefined && isPrivateV4(v4)) return true;
  return (
    (g0 & 0xfe00) === 0xfc00 || // unique local
    (g0 & 0xffc0) === 0xfe80 || // link-local
    (g0 & 0xffc0) === 0xfec0 || // site-local (deprecated, still local)
    (g0 & 0xff00) === 0xff00 || // multicast
    (g0 === 0x64 && g1 === 0xff9b && g2 === 1) || // local-use NAT64 64:ff9b:1::/48
    (g0 === 0x100 && g.slice(1, 4).every((x) => x === 0)) // discard-only 100::/64
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
