"""FlowBench agents: ReAct text, native function calling, and the gold replay."""
