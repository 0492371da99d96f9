// Reading optional text files (prompt templates, skills, project instructions): the contract's helpers,
// shared with the core (its prompt-template commands).
export * from "../../src/lib/text-files.ts";
