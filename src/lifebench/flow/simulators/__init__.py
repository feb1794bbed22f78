"""FlowBench session simulators: the tool environment (replay, LLM, offline) and the user."""
