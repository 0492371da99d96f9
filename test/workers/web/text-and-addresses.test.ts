// Unit tests of the web module's pure parts: the address classifier and the HTML-to-text converter.
import { describe, expect, test } from "bun:test";
import { isPrivateAddress } from "../../../workers/web/address-check.ts";
import { htmlToText } from "../../../workers/web/html-text.ts";

const PAGE = `<!doctype html><html><head><title>Test &amp; Page</title><style>body{color:red}</style>
<script>var secret = "do not show";</script></head><body>
<h1>Main heading</h1><p>First   paragraph with a <a href="/docs">docs link</a> and &lt;code&gt;.</p>
<!-- a comment -->
<ul><li>one</li><li>two</li></ul><pre>  indented
    more</pre><h2>Second</h2><p>caf&eacute; &#8364; &#x41;</p></body></html>`;

describe("address checks", () => {
  test("private, loopback, link-local and special ranges are private; public ones are not", () => {
    for (const ip of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "fc12::3",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "64:ff9b::a00:1",
      // IPv4-compatible, IPv4-translated, NAT64 (well-known and local-use), 6to4, Teredo, site-local
      "::127.0.0.1",
      "::7f00:1",
      "::a9fe:a9fe",
      "::ffff:0:127.0.0.1",
      "64:ff9b::127.0.0.1",
      "64:ff9b:1::1",
      "2002:7f00:1::",
      "2002:c0a8:101::1",
      "2002:a9fe:a9fe:1::1",
      "2001:0:4136:e378:8000:63bf:80ff:fffe", // Teredo, client 127.0.0.1
      "fec0::1",
      "100::1",
      "not-an-ip",
    ]) {
      expect([ip, isPrivateAddress(ip)]).toEqual([ip, true]);
    }
    for (const ip of [
      "8.8.8.8",
      "1.1.1.1",
      "172.32.0.1",
      "192.169.0.1",
      "2606:4700::1111",
      "::ffff:8.8.8.8",
      "2002:808:808::1", // 6to4 of 8.8.8.8
      "64:ff9b::808:808",
    ]) {
      expect([ip, isPrivateAddress(ip)]).toEqual([ip, false]);
    }
  });
});

describe("html to text", () => {
  test("drops scripts, styles and tags; keeps headings, lists, links, pre and entities", () => {
    const { title, text } = htmlToText(PAGE, "http://site.test/dir/");
    expect(title).toBe("Test & Page");
    expect(text).toBe(
      [
        "# Main heading",
        "",
        "First paragraph with a docs link (http://site.test/docs) and <code>.",
        "",
        "- one",
        "- two",
        "  indented",
        "    more",
        "",
        "## Second",
        "",
        "café € A",
      ].join("\n"),
    );
  });

  test("line breaks, tables, images, entity case and link targets", () => {
    const html =
      "<div>a<br>b<br><br>c</div><table><tr><th>H1</th><th>H2</th></tr><tr><td>1</td><td>2</td></tr></table>" +
      "<p>x<img alt='logo'>&Eacute;&eacute;&yuml;&AMP;&Amp;&bogus;</p>" +
      "<a href='javascript:alert(1)'>js</a> <a href='https://e.org'>https://e.org</a>";
    expect(htmlToText(html, "http://h/").text).toBe(
      "a\nb\n\nc\n\nH1\tH2\n1\t2\n\nx[image: logo]Ééÿ&&Amp;&bogus;\n\njs https://e.org",
    );
  });

  test("control characters the converter uses internally do not become line breaks, spaces or tabs", () => {
    expect(htmlToText("<p>a\u0001b\u0002c\u0003d</p>", "http://h/").text).toBe("abcd");
  });
});
