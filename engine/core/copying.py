"""Copies of states and their plain-data form: :func:`clone` (a deep copy compiled per
dataclass from its field types), :func:`dump` and :func:`load` (msgpack-ready data and back),
which is how the host journals and resumes tables."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_HINTS: dict[type, dict[str, Any]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = tuple(f.name for f in dataclasses.fields(cls))
        _FIELD_NAMES[cls] = names
    return names


_SHARED: set[type] = {str, int, float, bool, complex, bytes, type(None), tuple, frozenset}
"""Types whose values :func:`clone` shares instead of copying: nothing can change them.
Frozen dataclasses (events) join the first time one is met; so do other types that
:func:`clone` does not know how to copy (as before: it copies lists, dicts, sets and
non-frozen dataclasses only)."""

_COPIERS: dict[type, Callable[[Any], Any]] = {}
"""Each non-frozen dataclass's copier, compiled from its fields' types on first use."""


def clone(value: T) -> T:
    """A deep copy of plain state data, much faster than :func:`copy.deepcopy`.

    Lists, dicts, sets and non-frozen dataclasses are copied; everything else
    is shared (strings, numbers, tuples, frozen dataclasses such as events:
    nothing changes them). A dataclass is copied by a function compiled once
    from its fields' declared types (:func:`_compile_copier`): a ``list[str]``
    field is one slice, a ``list[Event]`` log one slice too, and only fields
    typed ``Any`` (or a dataclass) go through this generic walk.
    """
    kind = type(value)
    if kind is list:
        return [item if type(item) in _SHARED else clone(item) for item in value]  # type: ignore[attr-defined, return-value]
    if kind is dict:
        return {
            key: item if type(item) in _SHARED else clone(item)
            for key, item in value.items()  # type: ignore[attr-defined]
        }  # type: ignore[return-value]
    if kind in _SHARED:
        return value
    copier = _COPIERS.get(kind)
    if copier is None:
        copier = _copier(kind)
    result: T = copier(value)
    return result


def _copier(kind: type) -> Callable[[Any], Any]:
    """How :func:`clone` copies values of ``kind`` (compiled and remembered on first use)."""
    params = getattr(kind, "__dataclass_params__", None)
    if params is not None and not params.frozen:
        copier = _compile_copier(kind)
    elif kind is set:
        copier = _copy_set
    else:
        _SHARED.add(kind)
        return _share
    _COPIERS[kind] = copier
    return copier


def _share(value: T) -> T:
    return value


def _copy_set(value: set[Any]) -> set[Any]:
    return {item if type(item) in _SHARED else clone(item) for item in value}


_IMMUTABLE_HINTS: frozenset[Any] = frozenset(
    {str, int, float, bool, complex, bytes, type(None), None}
)


def _immutable(hint: Any) -> bool:
    """Whether a value of the declared type ``hint`` can never change (so copies share it)."""
    if hint in _IMMUTABLE_HINTS:
        return True
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return True
    if origin is typing.Annotated:
        return _immutable(typing.get_args(hint)[0])
    if origin in (types.UnionType, typing.Union, tuple, frozenset):
        args = [arg for arg in typing.get_args(hint) if arg is not Ellipsis]
        return bool(args) and all(_immutable(arg) for arg in args)
    if isinstance(hint, type):
        params = getattr(hint, "__dataclass_params__", None)
        return params is not None and bool(params.frozen)
    return False


class _CopierSource:
    """The names a compiled copier's source uses: fresh variables and constants."""

    def __init__(self) -> None:
        self.count = 0
        self.namespace: dict[str, Any] = {
            "new": object.__new__,
            "clone": clone,
            "shared": _SHARED,
            "setattr_": object.__setattr__,
        }

    def fresh(self) -> str:
        self.count += 1
        return f"v{self.count}"

    def constant(self, value: Any) -> str:
        name = f"c{self.count}"
        self.count += 1
        self.namespace[name] = value
        return name


_COMPILING: set[type] = set()
"""Dataclasses whose copier is being compiled (a field of their own type uses clone())."""


def _copy_expression(hint: Any, source: str, names: _CopierSource) -> str:
    """Python source that copies ``source``, a value declared as ``hint``.

    ``names`` supplies fresh variable names and holds the constants used.
    Anything the declared type does not pin down (``Any``, a union of several
    kinds) goes through :func:`clone`; so does a dataclass field whose value
    is not of exactly the declared class.
    """
    if _immutable(hint):
        return source
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Annotated:
        return _copy_expression(args[0], source, names)
    if origin in (types.UnionType, typing.Union):
        options = [arg for arg in args if arg is not type(None)]
        if len(options) == 1:
            inner = _copy_expression(options[0], source, names)
            return f"(None if {source} is None else {inner})"
        return f"clone({source})"
    if hint is list or origin is list:
        item = args[0] if args else Any
        if _immutable(item):
            return f"{source}[:]"
        name = names.fresh()
        return f"[{_copy_item(item, name, names)} for {name} in {source}]"
    if origin is tuple:  # holding something changeable (else it is immutable)
        item = args[0] if len(args) == 2 and args[1] is Ellipsis else Any
        name = names.fresh()
        return f"tuple([{_copy_item(item, name, names)} for {name} in {source}])"
    if hint is dict or origin in (dict, Mapping, typing.Mapping):
        item = args[1] if len(args) == 2 else Any
        if _immutable(item):
            return f"{source}.copy()"
        key, name = names.fresh(), names.fresh()
        return f"{{{key}: {_copy_item(item, name, names)} for {key}, {name} in {source}.items()}}"
    params = getattr(hint, "__dataclass_params__", None)
    if isinstance(hint, type) and params is not None and hint not in _COMPILING:
        copier = _COPIERS.get(hint) or _copier(hint)
        value, call, kind = names.fresh(), names.constant(copier), names.constant(hint)
        return f"({call}({value}) if type({value} := {source}) is {kind} else clone({value}))"
    return f"clone({source})"


def _copy_item(hint: Any, name: str, names: _CopierSource) -> str:
    """Like :func:`_copy_expression` for a plain variable: ``Any`` items are shared inline
    when their type is one :func:`clone` shares, saving a call per string or number."""
    expression = _copy_expression(hint, name, names)
    if expression == f"clone({name})":
        return f"({name} if type({name}) in shared else clone({name}))"
    return expression


def _compile_copier(cls: type) -> Callable[[Any], Any]:
    """A function copying instances of the non-frozen dataclass ``cls``, field by field.

    Built from the fields' declared types (mypy holds the engine's states to
    them): immutable fields are shared, ``list[str]`` is sliced, nested
    containers and dataclasses are copied to the depth their types say, and
    fields marked :data:`SHARED` are shared. A class whose hints cannot be
    resolved is copied with :func:`clone` field by field.
    """
    try:
        hints = typing.get_type_hints(cls, include_extras=True)
    except (NameError, TypeError):
        hints = {}
    names = _CopierSource()
    custom_setattr = cls.__setattr__ is not object.__setattr__  # type: ignore[comparison-overlap]
    lines = ["def copy(value):", f"    new_value = new({names.constant(cls)})"]
    _COMPILING.add(cls)
    try:
        for spec in dataclasses.fields(cls):
            name = spec.name
            if spec.metadata.get("clowder.shared"):
                expression = f"value.{name}"  # replaced, never changed in place: see SHARED
            else:
                expression = _copy_expression(hints.get(name, Any), f"value.{name}", names)
            if custom_setattr:
                lines.append(f"    setattr_(new_value, {name!r}, {expression})")
            else:
                lines.append(f"    new_value.{name} = {expression}")
    finally:
        _COMPILING.discard(cls)
    lines.append("    return new_value")
    exec("\n".join(lines), names.namespace)  # the source is built above from field names
    copier: Callable[[Any], Any] = names.namespace["copy"]
    copier.__qualname__ = f"copy_{cls.__name__}"
    return copier


def dump(value: Any) -> Any:
    """Turn state data (dataclasses included) into msgpack-ready plain data."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: dump(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, list | tuple):
        return [dump(item) for item in value]
    if isinstance(value, dict | types.MappingProxyType):
        return {key: dump(item) for key, item in value.items()}
    return value


def load(kind: Any, data: Any) -> Any:
    """Rebuild a value of type ``kind`` from :func:`dump`'s output.

    Understands the annotations states use: dataclasses, ``list[X]``,
    ``tuple[X, ...]``, ``dict[str, X]``, ``Mapping``, ``X | None`` and ``Any``.
    """
    if kind is Any or kind is object:
        return data
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        if data is None:
            return None
        options = [arg for arg in typing.get_args(kind) if arg is not type(None)]
        return load(options[0], data)
    if origin is list:
        (item,) = typing.get_args(kind)
        return [load(item, value) for value in data]
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(load(args[0], value) for value in data)
        return tuple(load(arg, value) for arg, value in zip(args, data, strict=True))
    if origin in (dict, Mapping, typing.Mapping) or kind is dict:
        args = typing.get_args(kind)
        value_kind = args[1] if args else Any
        return {key: load(value_kind, value) for key, value in data.items()}
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = _HINTS.get(kind)
        if hints is None:
            hints = _HINTS[kind] = typing.get_type_hints(kind)
        values = {name: load(hints[name], data[name]) for name in _field_names(kind)}
        return kind(**values)
    return data
