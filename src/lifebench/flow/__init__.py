"""FlowBench: workflow-guided agent planning (knowledge in four formats, turn and session level)."""
