// The LSP client library (vscode-languageserver-protocol on vscode-jsonrpc), loaded on first use so that
// nothing else of `i` pays for it, and the few LSP shapes the module reads.
type Proto = typeof import("vscode-languageserver-protocol/node");

let proto: Promise<Proto> | undefined;

export function loadProtocol(): Promise<Proto> {
  proto ??= import("vscode-languageserver-protocol/node");
  return proto;
}

export type ProtocolConnection = import("vscode-languageserver-protocol/node").ProtocolConnection;
export type ServerCapabilities = import("vscode-languageserver-protocol/node").ServerCapabilities;
export type Diagnostic = import("vscode-languageserver-protocol/node").Diagnostic;
export type Location = import("vscode-languageserver-protocol/node").Location;
export type LocationLink = import("vscode-languageserver-protocol/node").LocationLink;
export type DocumentSymbol = import("vscode-languageserver-protocol/node").DocumentSymbol;
export type SymbolInformation = import("vscode-languageserver-protocol/node").SymbolInformation;
export type WorkspaceSymbol = import("vscode-languageserver-protocol/node").WorkspaceSymbol;
export type Hover = import("vscode-languageserver-protocol/node").Hover;
