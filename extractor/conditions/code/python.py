"""Python blocks read with `ast`: the model a run loads, the keyword arguments that set its load (max_new_tokens,
batch_size, torch_dtype, tensor_parallel_size), a warm-up count or a warm-up loop before the timed one, the
prompt it sends, whether it times anything, and whether it places the model on a single device. Names assigned
a constant once are read through (`model_id = "..."`, `from_pretrained(model_id)`)."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from extractor.conditions.code.harnesses import PythonRules, Reading
from extractor.conditions.code.source import Source

_MAGIC = re.compile(r"^\s*[%!]")
MODEL_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")
_FILE = re.compile(r"\.(?:py|json|ya?ml|pt|bin|safetensors|gguf|onnx|txt|csv)$", re.I)
_MODEL_KEYWORDS = ("model", "pretrained_model_name_or_path", "model_name", "model_id", "model_path")
_PROMPT_CHARS = 80
_BLANKS = re.compile(r"\s+")


@dataclass(slots=True)
class Finding:
    """One condition a Python block states: a reading, the value, and the span of the code that states it."""

    reading: Reading
    value: object
    span: tuple[int, int]
    key: str


@dataclass(slots=True)
class PythonBlock:
    """What a parsed Python block states, and whether it times something."""

    findings: list[Finding] = field(default_factory=list)
    times: bool = False
    timing_functions: set[str] = field(default_factory=set)   # the functions it defines that time something
    calls: set[str] = field(default_factory=set)              # the names of what it calls
    single: tuple[int, int] | None = None   # where it places a model or tensors on one device
    multi: bool = False                     # it spreads work over devices (device_map="auto", DataParallel)


def parse(src: Source) -> ast.Module | None:
    """The block as a module (IPython magics and shell escapes blanked), or None when it is no Python that
    calls or imports anything."""
    text = "\n".join("" if _MAGIC.match(line) else line for line in src.lines)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not any(isinstance(n, (ast.Call, ast.Import, ast.ImportFrom, ast.Assign)) for n in ast.walk(tree)):
        return None
    return tree


def dotted(node: ast.AST) -> str:
    """`torch.cuda.Event` for the expression it names; '' for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted(node.value)
        return f"{inner}.{node.attr}" if inner else node.attr
    if isinstance(node, ast.Call):
        return dotted(node.func)
    return ""


class PythonReader:
    """Reads parsed Python blocks (rules: `python` in rules/harnesses.yaml)."""

    def __init__(self, rules: PythonRules, precision_of):
        self.rules = rules
        self.precision_of = precision_of
        self.not_model = [re.compile(p) for p in rules.not_model_objects]
        self.helper = re.compile(rules.helper_names)
        self.warmup_name = re.compile(rules.warmup_names)
        self.one_device = re.compile(rules.one_device)
        self.timers = tuple(rules.timers)
        self.prompt_names = frozenset(rules.prompt_names)
        self.single_image_calls = frozenset(rules.single_image_calls)

    def read(self, src: Source, tree: ast.Module) -> PythonBlock:
        """What the block states."""
        out = PythonBlock()
        nodes, parents = _nodes(tree)
        names = _Names(nodes)
        single: list[tuple[int, int]] = []
        multi = False
        timer_calls: list[ast.Call] = []   # the calls that start or read a timer (a timer's, or `.record`)
        for node in nodes:
            if not isinstance(node, ast.Call):
                continue
            callee = dotted(node.func)
            last = callee.rsplit(".", 1)[-1]
            if any(callee == t or callee.endswith("." + t) for t in self.timers):
                out.times = True
                timer_calls.append(node)
            elif callee.endswith(".record"):
                timer_calls.append(node)
            if last in self.rules.multi_device:
                multi = True
            if callee in self.rules.hub_calls and len(node.args) >= 2 and not self._helper(node, parents):
                self._hub_model(src, node, names, out)
            elif last in self.rules.model_calls and not self._helper(node, parents):
                owner = callee.rsplit(".", 1)[0] if "." in callee else ""
                if not any(rx.fullmatch(owner.rsplit(".", 1)[-1]) for rx in self.not_model):
                    self._model(src, node, names, out)
            for kw in node.keywords:
                if kw.arg is None:
                    continue
                reading = self.rules.keywords.get(kw.arg)
                if reading is not None and not (reading.condition == "model"):
                    found = names.constant(kw.value)
                    if found is not None:
                        value, where = found
                        out.findings.append(Finding(reading, value, _span(src, kw if where is kw.value else where),
                                                    kw.arg))
                if kw.arg in ("device", "device_map"):
                    found = names.constant(kw.value)
                    if found is not None and isinstance(found[0], str):
                        if self.one_device.match(found[0]):
                            single.append(_span(src, kw))
                        elif found[0] in self.rules.multi_device_maps:
                            multi = True
                    elif kw.arg == "device_map" and isinstance(kw.value, ast.Dict):
                        multi |= len(kw.value.keys) > 1
            if last in ("to", "device", "set_default_device") and node.args:
                found = names.constant(node.args[0])
                if found is not None and isinstance(found[0], str) and self.one_device.match(found[0]):
                    single.append(_span(src, node))
            elif last == "cuda" and not node.args and isinstance(node.func, ast.Attribute):
                single.append(_span(src, node))
        timing = _with_ancestors(timer_calls, parents)
        self._assigned(src, nodes, parents, names, out)
        self._single_images(src, nodes, parents, names, out)
        self._warmup_loops(src, nodes, names, timing, out)
        out.single, out.multi = (single[0] if single else None), multi
        out.calls = {dotted(n.func).rsplit(".", 1)[-1] for n in nodes if isinstance(n, ast.Call)}
        out.timing_functions = {n.name for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                                and any(st in timing for st in n.body)}
        return out

    # -- the model -------------------------------------------------------------------
    def _helper(self, call: ast.Call, parents: dict) -> bool:
        """A model loaded as a helper: assigned to a draft or assistant name, or passed as such a keyword."""
        up = parents.get(call)
        while isinstance(up, (ast.Call, ast.Attribute)):   # from_pretrained(...).to("cuda")
            up = parents.get(up)
        if isinstance(up, ast.Assign):
            return any(self.helper.search(dotted(t) or "") for t in up.targets)
        if isinstance(up, ast.keyword):
            return bool(up.arg and self.helper.search(up.arg))
        return False

    def _model(self, src: Source, call: ast.Call, names: "_Names", out: PythonBlock) -> None:
        arg = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg in _MODEL_KEYWORDS), None)
        found = names.constant(arg) if arg is not None else None
        if found is None or not isinstance(found[0], str):
            return
        value, where = found
        if not MODEL_ID.match(value) or _FILE.search(value):
            return
        out.findings.append(Finding(Reading(condition="model"), value, _span(src, where), "model"))

    def _hub_model(self, src: Source, call: ast.Call, names: "_Names", out: PythonBlock) -> None:
        """`torch.hub.load("org/repo:tag", "name")`: the model `name` of that repository."""
        repo, model = (names.constant(a) for a in call.args[:2])
        if repo and model and isinstance(repo[0], str) and isinstance(model[0], str) and model[0].strip():
            span = (_span(src, call.args[0])[0], _span(src, call.args[1])[1])
            out.findings.append(Finding(Reading(condition="model"), f"{model[0]} ({repo[0]})", span, "hub"))

    # -- names assigned once -----------------------------------------------------------
    def _assigned(self, src: Source, nodes: list[ast.AST], parents: dict, names: "_Names", out: PythonBlock) -> None:
        """`batch_size = 16`, `max_new_tokens = 200`, `n_warmup = 10`, `prompt = "..."`: a name assigned a
        constant once, when the block reads it. One prompt (a string, or a list of one) that the block only
        passes whole to calls (not repeated into a batch, not looped over with others) is a batch of one."""
        for name, (value, node) in names.once.items():
            reading = self.rules.keywords.get(name)
            if reading is not None and reading.condition != "model":
                out.findings.append(Finding(reading, value, _span(src, node), name))
            elif self.warmup_name.match(name) and isinstance(value, int) and not isinstance(value, bool) and value > 0:
                out.findings.append(Finding(Reading(condition="warmup"), None, _span(src, node), name))
            elif name in self.prompt_names:
                prompt = prompt_value(value)
                if prompt:
                    out.findings.append(Finding(Reading(condition="dataset"), prompt, _span(src, node), name))
                    if _one(value) and _passed_whole(nodes, parents, name):
                        out.findings.append(Finding(Reading(condition="batch_or_concurrency"), 1, _span(src, node),
                                                    f"{name}:one"))

    def _single_images(self, src: Source, nodes: list[ast.AST], parents: dict, names: "_Names",
                       out: PythonBlock) -> None:
        """`image = Image.open(path)`: one image read once, outside any loop or comprehension, that the block only
        passes whole to calls (`processor(images=image)`, `preprocess(image)`; not `[image] * 8`) is a batch of
        one, from a single image (`single_image_calls`)."""
        for name, found in names.seen.items():
            if len(found) != 1:
                continue
            node = found[0][1]
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                    and dotted(node.value.func) in self.single_image_calls) or _in_loop(node, parents):
                continue
            if _passed_whole(nodes, parents, name):
                span = _span(src, node)
                out.findings.append(Finding(Reading(condition="batch_or_concurrency"), 1, span, f"{name}:one"))
                out.findings.append(Finding(Reading(condition="dataset"), "single image", span, f"{name}:one"))

    def _warmup_loops(self, src: Source, nodes: list[ast.AST], names: "_Names", timing: set[ast.AST],
                      out: PythonBlock) -> None:
        """A `for _ in range(N)` loop that calls what the timed part after it calls, right before a timer
        starts in the same body: N warm-up runs. `timing`: the nodes that hold a timer call."""
        if not timing:
            return
        for node in nodes:
            for body in _bodies(node):
                timed = next((i for i, st in enumerate(body) if st in timing), None)
                if timed is None:
                    continue
                after = {c for st in body[timed:] for c in _called(st)}
                for st in body[:timed]:
                    if not isinstance(st, ast.For) or not _is_range(st.iter):
                        continue
                    found = names.constant(st.iter.args[-1] if len(st.iter.args) == 1 else None)
                    if found is None or not isinstance(found[0], int):
                        continue
                    if _called(st) - {"print", "range", "len"} & after:
                        lo = src.byte_offset(st.lineno, st.col_offset)
                        head = src.lines[st.lineno - 1]
                        out.findings.append(Finding(
                            Reading(condition="warmup"), f"{found[0]} warm-up runs before the timed ones",
                            (lo, src.starts[st.lineno - 1] + len(head.rstrip())), "loop"))


class _Names:
    """The names a module assigns: those assigned one constant once (`once`), and those it reads."""

    def __init__(self, nodes: list[ast.AST]):
        """`nodes`: the module's nodes (`_nodes`)."""
        seen: dict[str, list[tuple[object, ast.AST]]] = {}
        self.read: set[str] = set()
        for node in nodes:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                value = _literal(node.value)
                seen.setdefault(node.targets[0].id, []).append((value, node))
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)) and isinstance(node.target, ast.Name):
                seen.setdefault(node.target.id, []).append((None, node))
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                self.read.add(node.id)
        self.once = {name: found[0] for name, found in seen.items() if len(found) == 1 and found[0][0] is not None}
        self.seen = {name: sorted(found, key=lambda f: (f[1].lineno, f[1].col_offset)) for name, found in seen.items()}

    def constant(self, node: ast.AST | None) -> tuple[object, ast.AST] | None:
        """The constant `node` is, or that the name it is holds there: the constant of the name's last
        assignment on an earlier line (its only one, when none is earlier), with the node that writes it."""
        if node is None:
            return None
        value = _literal(node)
        if value is not None:
            return value, node
        if not isinstance(node, ast.Name) or node.id not in self.seen:
            return None
        before = [(v, n) for v, n in self.seen[node.id] if n.lineno < node.lineno]
        if before:
            value, where = before[-1]
            return (value, where) if value is not None else None
        return self.once.get(node.id)


def _literal(node: ast.AST) -> object:
    """A constant, a list or tuple of constants, or a dtype attribute (`torch.bfloat16`); None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple)) and node.elts and all(isinstance(e, ast.Constant) for e in node.elts):
        return [e.value for e in node.elts]
    if isinstance(node, ast.Attribute) and dotted(node).startswith("torch."):
        return dotted(node)
    return None


def _span(src: Source, node: ast.AST) -> tuple[int, int]:
    return (src.byte_offset(node.lineno, node.col_offset), src.byte_offset(node.end_lineno, node.end_col_offset))


def prompt_value(value: object) -> str | None:
    """A prompt as a dataset: `single prompt "..."` (a prompt too long to show whole is `single prompt`: its
    quote holds it), or the prompts of a short list."""
    prompts = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    if not prompts or len(prompts) > 8 or not all(isinstance(p, str) and p.strip() for p in prompts):
        return None
    prompts = [_BLANKS.sub(" ", p).strip() for p in prompts]
    shown = [p if len(p) <= _PROMPT_CHARS else p[:_PROMPT_CHARS - 3] + "..." for p in prompts]
    if len(set(prompts)) == 1:
        text = f' "{shown[0]}"' if len(prompts[0]) <= _PROMPT_CHARS else ""
        return f"single prompt{text}" + (f" (x{len(prompts)})" if len(prompts) > 1 else "")
    return f"{len(prompts)} prompts: " + "; ".join(f'"{p}"' for p in shown)


def _one(value: object) -> bool:
    return isinstance(value, str) or isinstance(value, list) and len(value) == 1 and isinstance(value[0], str)


def _nodes(tree: ast.AST) -> tuple[list[ast.AST], dict[ast.AST, ast.AST]]:
    """Every node of `tree` in `ast.walk`'s order (breadth first), and each node's parent: one walk that the
    readers of a block share (each walked the tree again)."""
    nodes: list[ast.AST] = [tree]
    parents: dict[ast.AST, ast.AST] = {}
    i = 0
    while i < len(nodes):
        node = nodes[i]
        i += 1
        for child in ast.iter_child_nodes(node):
            parents[child] = node
            nodes.append(child)
    return nodes, parents


def _with_ancestors(found: list[ast.AST], parents: dict[ast.AST, ast.AST]) -> set[ast.AST]:
    """The nodes of `found` and every node that holds one of them."""
    out: set[ast.AST] = set()
    for node in found:
        while node is not None and node not in out:
            out.add(node)
            node = parents.get(node)
    return out


def _passed_whole(nodes: list[ast.AST], parents: dict, name: str) -> bool:
    """Whether every read of `name` in the block is a whole argument of a call (`tokenizer(prompt)`,
    `generate(prompt, ...)`, `run(text=prompt)`), and there is one (`nodes`: the block's, `_nodes`)."""
    uses = [n for n in nodes if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
    for n in uses:
        up = parents.get(n)
        if isinstance(up, ast.keyword):
            up = parents.get(up)
        if not (isinstance(up, ast.Call) and up.func is not n):
            return False
    return bool(uses)


def _in_loop(node: ast.AST, parents: dict) -> bool:
    """Whether `node` runs in a loop or a comprehension (once per item: not one input)."""
    up = parents.get(node)
    while up is not None:
        if isinstance(up, (ast.For, ast.AsyncFor, ast.While, ast.comprehension, ast.ListComp, ast.GeneratorExp,
                           ast.SetComp, ast.DictComp, ast.Lambda)):
            return True
        up = parents.get(up)
    return False


def _bodies(node: ast.AST):
    for name in ("body", "orelse", "finalbody"):
        body = getattr(node, name, None)
        if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
            yield body


def _is_range(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and dotted(node.func) == "range" and 1 <= len(node.args) <= 2


def _called(st: ast.AST) -> set[str]:
    return {dotted(n.func).rsplit(".", 1)[-1] for n in ast.walk(st) if isinstance(n, ast.Call)}
