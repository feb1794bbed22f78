"""The FlowBench knowledge base: scenarios, their workflows in four formats, and their tools."""

from lifebench.flow.kb.loader import bundled_knowledge_dir, load_knowledge
from lifebench.flow.kb.models import (
    WORKFLOW_FORMATS,
    KnowledgeBase,
    ParamSpec,
    Scenario,
    ToolDef,
    WorkflowFormat,
)
from lifebench.flow.kb.render import (
    KnowledgeFormat,
    background,
    knowledge_text,
    scenario_knowledge,
    workflow_text,
)

__all__ = [
    "WORKFLOW_FORMATS",
    "KnowledgeBase",
    "KnowledgeFormat",
    "ParamSpec",
    "Scenario",
    "ToolDef",
    "WorkflowFormat",
    "background",
    "bundled_knowledge_dir",
    "knowledge_text",
    "load_knowledge",
    "scenario_knowledge",
    "workflow_text",
]
