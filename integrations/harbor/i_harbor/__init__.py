"""Harbor adapter for the `i` coding agent: ``--agent-import-path i_harbor.agent:IAgent``."""
