// A local stand-in for the GitHub REST endpoints the action calls (issue comments: list, create, edit),
// on 127.0.0.1 at an ephemeral port; GITHUB_API_URL points the action's Octokit at it. `failWith` makes
// every call answer that status (a token without write access).
export interface ApiCall {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
  auth: string | null;
}

export interface GithubMock {
  url: string;
  calls: ApiCall[];
  comments: Map<number, string>;
  close(): void;
}

export function startGithubMock(opts: { failWith?: number; existing?: string } = {}): GithubMock {
  const calls: ApiCall[] = [];
  const comments = new Map<number, string>();
  let next = 1000;
  if (opts.existing !== undefined) comments.set(next++, opts.existing);
  const json = (data: unknown, status = 200) =>
    new Response(JSON.stringify(data), { status, headers: { "content-type": "application/json" } });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const text = await req.text();
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
      calls.push({ method: req.method, path, body, auth: req.headers.get("authorization") });
      if (opts.failWith) return json({ message: "Resource not accessible by integration" }, opts.failWith);
      if (/^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/.test(path)) {
        if (req.method === "GET") return json([...comments].map(([id, b]) => ({ id, body: b })));
        const id = next++;
        comments.set(id, String(body?.body));
        return json({ id, body: body?.body }, 201);
      }
      const edit = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(path);
      if (edit && req.method === "PATCH") {
        const id = Number(edit[1]);
        if (!comments.has(id)) return json({ message: "Not Found" }, 404);
        comments.set(id, String(body?.body));
        return json({ id, body: body?.body });
      }
      return json({ message: "Not Found" }, 404);
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, calls, comments, close: () => server.stop(true) };
}
