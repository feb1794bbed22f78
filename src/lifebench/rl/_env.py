"""The step protocol: a suite's episodes, played one message at a time by an outside policy.

A :class:`StepEnvironment` holds what a run holds (suite, tasks, models, evaluators) and hands
out :class:`StepSession` s, one per (task, trial, seed), any number at once in one event loop.
A session plays the episode under the rules of :class:`~lifebench.simulation.EpisodeProcess`
— the same code :func:`~lifebench.simulation.run_episode` drives — answering the user's and the
tools' needs in process and stopping whenever the agent (or, optionally, the user) must speak.
At the end it grades the simulation with the run's evaluators
(:func:`lifebench.runner._experiment.evaluate`), so the reward is the one ``lifebench run``
and ``lifebench eval`` give for the same trajectory.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Literal

from lifebench._util.hashing import derive_seed
from lifebench._util.text import Language
from lifebench.errors import InfrastructureError, InputError, ModelError
from lifebench.evaluation import Evaluation
from lifebench.messages import AssistantMessage, Message, UserMessage
from lifebench.models import ChatModel, GenerateConfig, ModelFactory, ModelStats
from lifebench.models._convert import messages_to_openai
from lifebench.models._record import CallLog, PackedCalls, for_role, recording
from lifebench.rl._types import Observation, Outcome, assistant_message
from lifebench.runner._experiment import Experiment, build_experiment, evaluate
from lifebench.runner._transcript import UnitRecorder
from lifebench.simulation import (
    AgentTurn,
    Answer,
    ChatRequest,
    Episode,
    EpisodeProcess,
    ModelAgent,
    ModelUser,
    Need,
    Simulation,
    TerminationReason,
    UserTurn,
)
from lifebench.suites import RunOptions, make_run_options

POLICY = "policy"
"""The model name that stands for the outside policy in a step environment's options."""


class OutsidePolicy:
    """The agent model of a step environment: the policy answers through
    :meth:`StepSession.step`, so nothing ever calls it in process."""

    def __init__(self, name: str = POLICY) -> None:
        self.stats = ModelStats()
        self._name = name

    @property
    def name(self) -> str:
        """Display name."""
        return self._name

    async def generate(
        self,
        messages: Sequence[Message],
        *,
        tools: Sequence[dict[str, Any]] | None = None,
        config: GenerateConfig | None = None,
    ) -> AssistantMessage:
        """Never answers: the outside policy does, through the step protocol."""
        raise ModelError("the outside policy answers through step(), not in process")


class EpisodeOver(InputError):
    """A step was sent to an episode that has ended (or is answering another step)."""


class StepSession:
    """One episode played step by step. Not for concurrent use (one step at a time); any
    number of sessions may run at once.

    With a call log (the environment records calls: :attr:`StepEnvironment.record_calls`),
    every model call the session makes — the user simulator's, the tool simulator's, the
    judge's — is recorded into it, whichever request or task advances the episode, as
    ``lifebench run`` records a unit's calls; :attr:`calls` packs them for the store.
    """

    def __init__(
        self,
        env: StepEnvironment,
        task: Any,
        process: EpisodeProcess,
        *,
        policy_plays_user: bool,
        log: CallLog | None = None,
    ) -> None:
        self._env = env
        self._log = log
        self._task = task
        self._process = process
        self._user_policy = policy_plays_user
        self._need: Need | None = None
        self._request: ChatRequest | None = None
        self._reported = 0
        self._busy = False
        self.evaluation: Evaluation | None = None
        """The grading, once the episode has ended (None after an infrastructure error)."""
        self.outcome: Outcome | None = None
        """Reward and components, once the episode has ended."""
        self._simulation: Simulation | None = None

    # -- what the policy sees -------------------------------------------------------------

    @property
    def task_id(self) -> str:
        """The task being played."""
        return self._process.ep.task_id

    @property
    def trial(self) -> int:
        """Its trial."""
        return self._process.ep.trial

    @property
    def seed(self) -> int:
        """Its seed."""
        return self._process.ep.seed

    @property
    def episode_steps(self) -> int:
        """Steps taken so far (user messages, agent messages, tool batches)."""
        return self._process.steps

    @property
    def episode(self) -> Episode:
        """The episode being played (environment, agent, user, limits)."""
        return self._process.ep

    @property
    def language(self) -> Language:
        """The language of the run's prompts and tool descriptions."""
        return self._env.options.language

    @property
    def done(self) -> bool:
        """True once the episode has ended (and been graded)."""
        return self.outcome is not None

    @property
    def role(self) -> Literal["assistant", "user"] | None:
        """Whom the policy answers as now: ``assistant``, ``user``, or None once done."""
        if self._need is None:
            return None
        return "user" if isinstance(self._need, UserTurn) else "assistant"

    @property
    def request(self) -> ChatRequest | None:
        """The model call the policy answers now (lifebench messages), None once done."""
        return self._request

    @property
    def messages(self) -> list[Message]:
        """The trajectory so far."""
        return list(self._process.messages)

    @property
    def simulation(self) -> Simulation | None:
        """The record of the ended episode (as ``lifebench run`` stores it)."""
        return self._simulation

    @property
    def calls(self) -> PackedCalls | None:
        """The model calls recorded so far and the episode's briefing, packed for the store
        (None: the session records nothing)."""
        return None if self._log is None else self._log.pack()

    @contextmanager
    def recording(self) -> Iterator[None]:
        """Model calls made inside the block are the session's (recorded into its log, if it
        has one)."""
        with recording(self._log):
            yield

    async def ask(self, policy: ChatModel) -> AssistantMessage:
        """The answer of ``policy`` (a chat model playing the agent, or the user when the
        policy plays it) to the current request, recorded as that role's call.

        Raises:
            EpisodeOver: The episode has ended.
        """
        request = self._request
        if request is None:
            raise EpisodeOver(f"episode {self.task_id}#{self.trial} has ended")
        role = "user" if isinstance(self._need, UserTurn) else "agent"
        with recording(self._log):
            return await for_role(policy, role).generate(
                request.messages, tools=request.tools, config=request.config
            )

    def observation(self) -> Observation:
        """The current observation; its ``new_messages`` are those added since the last one."""
        new = self._process.messages[self._reported :]
        self._reported = len(self._process.messages)
        request = self._request
        return Observation(
            task_id=self.task_id,
            trial=self.trial,
            seed=self.seed,
            role=self.role,
            messages=messages_to_openai(request.messages) if request is not None else [],
            tools=[dict(t) for t in request.tools or ()] if request is not None else [],
            new_messages=new,
            done=self.done,
            reward=self.outcome.reward if self.outcome is not None else None,
            outcome=self.outcome,
        )

    # -- playing --------------------------------------------------------------------------

    async def step(self, answer: AssistantMessage | Mapping[str, Any]) -> Observation:
        """Answer the current prompt with the policy's message (an :class:`AssistantMessage`
        or an OpenAI chat message): the agent reads it as its model's answer (a ReAct agent
        may ask again), or the user simulator does when the policy plays the user; the episode
        then goes on until the policy must answer again, or ends and is graded.

        Raises:
            EpisodeOver: The episode has ended, or another step of it is running.
            InputError: ``answer`` is not an assistant message.
            FatalProviderError: A model of the environment (user, tools, judge) refuses
                every call.
        """
        message = assistant_message(answer)
        need, request = self._claim()
        try:
            reply: Answer | ChatRequest
            if isinstance(need, UserTurn):
                user = self._process.ep.user
                assert isinstance(user, ModelUser)
                reply = user.read(request, message)
            else:
                agent = self._process.ep.agent
                assert isinstance(agent, ModelAgent)
                reply = agent.read(request, message)
            if isinstance(reply, ChatRequest):  # the agent asks its model again
                self._request = reply
                return self.observation()
            return await self._advance(self._process.send(reply))
        finally:
            self._busy = False

    async def act(self, message: AssistantMessage) -> Observation:
        """Send the agent's next message as it is, bypassing the agent's reading of a model
        answer (for agents that are not a chat model: MCP clients, scripted agents).

        Raises:
            EpisodeOver: The episode has ended, another step is running, or it is the user's
                turn.
        """
        need, _ = self._claim()
        try:
            if not isinstance(need, AgentTurn):
                raise EpisodeOver("it is the user's turn, not the agent's")
            return await self._advance(self._process.send(message))
        finally:
            self._busy = False

    async def fail(self, exc: InfrastructureError) -> Observation:
        """The policy could not answer (its model failed after its retries): the episode ends
        with ``infrastructure_error``, as in a run.

        Raises:
            EpisodeOver: The episode has ended or a step is running.
        """
        need, _ = self._claim()
        try:
            self._process.fail(need, exc)
            return await self._advance(None)
        finally:
            self._busy = False

    def _claim(self) -> tuple[Need, ChatRequest]:
        if self._busy:
            raise EpisodeOver(f"episode {self.task_id}#{self.trial} is answering another step")
        if self._need is None or self._request is None:
            raise EpisodeOver(f"episode {self.task_id}#{self.trial} has ended")
        self._busy = True
        return self._need, self._request

    async def start(self) -> Observation:
        """Begin the episode (called by :meth:`StepEnvironment.reset`)."""
        return await self._advance(self._process.start())

    async def _advance(self, need: Need | None) -> Observation:
        """Answer the environment's needs in process until the policy's turn or the end."""
        process = self._process
        self._need = self._request = None
        with recording(self._log):  # the user's, tools' and judge's calls: the session's
            need = await process.advance(need, self._outside)
        if isinstance(need, AgentTurn):
            agent = process.ep.agent
            assert isinstance(agent, ModelAgent)
            self._need, self._request = need, agent.request(need.trajectory)
            return self.observation()
        if isinstance(need, UserTurn):
            user = process.ep.user
            assert isinstance(user, ModelUser)
            self._need, self._request = need, user.request(need.trajectory)
            return self.observation()
        with recording(self._log):
            await self._finish()
        return self.observation()

    def _outside(self, need: Need) -> bool:
        """Whether the policy answers ``need``: the agent's turns, and the user's when the
        policy plays the user."""
        return isinstance(need, AgentTurn) or (self._user_policy and isinstance(need, UserTurn))

    async def _finish(self) -> None:
        simulation = self._process.simulation()
        self._simulation = simulation
        evaluation = None
        if simulation.termination is not TerminationReason.INFRASTRUCTURE_ERROR:
            evaluation = await self._env.evaluate(self._task, simulation)
        self.evaluation = evaluation
        self.outcome = Outcome.of(simulation, evaluation, self._env.bases)


class StepEnvironment:
    """A suite's episodes for an outside policy: any number of :class:`StepSession` s at once.

    Build it with :meth:`build` from run options (``lifebench run``'s, as a
    :class:`~lifebench.suites.RunOptions` or a mapping): the suite, its tasks and the models
    of the user simulator, tool simulator and judge are set up as for a run; the agent is the
    suite's chat-model agent (``--agent llm``) whose model is the policy.
    """

    def __init__(
        self, experiment: Experiment, *, policy_plays_user: bool = False, record_calls: bool = False
    ) -> None:
        self.experiment = experiment
        self.policy_plays_user = policy_plays_user
        self.record_calls = record_calls
        """Whether sessions started from now on record their model calls and briefing (as
        ``lifebench run`` does for a unit): set by :class:`~lifebench.rl._record.RunRecorder` when
        the episodes are stored with ``record_requests``."""
        self._units = UnitRecorder()

    @classmethod
    def build(
        cls,
        options: RunOptions | Mapping[str, Any],
        *,
        models: ModelFactory | None = None,
        policy_plays_user: bool = False,
        policy_name: str = POLICY,
    ) -> StepEnvironment:
        """The environment of ``options``, with the agent (and, with ``policy_plays_user``,
        the user) played by the outside policy. A given ``agent_model`` is kept in the
        configuration (e.g. the rollout's policy model); without one the agent's model is
        ``policy_name`` (:data:`POLICY`), which only the step protocol answers.

        Raises:
            InputError: Bad options or tasks (as ``lifebench run`` reports them).
        """
        values = dict(options.model_dump() if isinstance(options, RunOptions) else options)
        values["agent"] = "llm"
        values["agent_model"] = values.get("agent_model") or policy_name
        if policy_plays_user:
            values["user"] = "llm"
            values["user_model"] = values.get("user_model") or policy_name
        run_options = make_run_options(values)
        if models is None:
            models = (
                ModelFactory.from_file(run_options.models_file)
                if run_options.models_file
                else ModelFactory()
            )
        models.register(policy_name, OutsidePolicy(policy_name))
        return cls(
            build_experiment(run_options, models=models), policy_plays_user=policy_plays_user
        )

    @property
    def options(self) -> RunOptions:
        """The run options (domain resolved)."""
        return self.experiment.options

    @property
    def task_ids(self) -> list[str]:
        """The selected tasks, in order."""
        return list(self.experiment.tasks)

    @property
    def bases(self) -> list[str]:
        """The bases whose product is the reward."""
        return self.experiment.bases

    def seed_of(self, task_id: str, trial: int) -> int:
        """The seed ``lifebench run`` gives (task, trial) under these options."""
        return derive_seed(self.options.seed, task_id, trial)

    async def reset(self, task_id: str, trial: int = 0, seed: int | None = None) -> StepSession:
        """Start trial ``trial`` of ``task_id`` (seed: the run's, unless given) and play it up
        to the policy's first turn; the session's :meth:`StepSession.observation` is the first
        observation.

        Raises:
            InputError: Unknown task, or the suite's agent (user) is not a chat-model one.
        """
        exp = self.experiment
        task = exp.tasks.get(task_id)
        if task is None:
            known = ", ".join(list(exp.tasks)[:10])
            raise InputError(f"unknown task id {task_id!r} (tasks: {known}, …)", field="task_id")
        if trial < 0:
            raise InputError(f"trial must be 0 or more, not {trial}", field="trial")
        seed = self.seed_of(task_id, trial) if seed is None else seed
        log = self._units.log() if self.record_calls else None
        with recording(log):
            episode = exp.suite.build_episode(task, trial, seed, exp.options, exp.models)
        if not isinstance(episode.agent, ModelAgent):
            raise InputError(
                f"the {exp.options.suite} suite's llm agent ({type(episode.agent).__name__}) "
                "does not expose its model calls (ModelAgent), so no policy can play it"
            )
        if self.policy_plays_user and not isinstance(episode.user, ModelUser):
            raise InputError(
                f"the {exp.options.suite} suite's user simulator ({type(episode.user).__name__}) "
                "is not driven by a chat model (ModelUser), so the policy cannot play it"
            )
        if log is not None:
            self._units.brief(log, episode)
        session = StepSession(
            self, task, EpisodeProcess(episode), policy_plays_user=self.policy_plays_user, log=log
        )
        await session.start()
        return session

    async def evaluate(self, task: Any, simulation: Simulation) -> Evaluation:
        """Grade ``simulation`` as a run does (every evaluator; reward = product of the
        bases; a failing judge is a grading error, never a 0)."""
        exp = self.experiment
        return await evaluate(task, simulation, exp.evaluators, exp.bases)

    async def aclose(self) -> None:
        """Close the models (HTTP clients)."""
        await self.experiment.aclose()


def user_message_text(messages: Sequence[Message]) -> str:
    """The user's messages among ``messages``, one per line."""
    return "\n".join(m.content for m in messages if isinstance(m, UserMessage))
