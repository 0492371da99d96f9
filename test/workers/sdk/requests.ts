// The request line a core sends a worker, as the SDK tests write it: `module` only when it is named.
export const req = (id: number, event: string, data: Record<string, unknown>, module?: string) => ({
  id,
  event,
  workspace: "/w",
  data,
  ...(module ? { module } : {}),
});
