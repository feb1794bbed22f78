"""FlowBench evaluation: argument matching, turn- and session-level scoring, judges, report."""
