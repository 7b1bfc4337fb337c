"""How a framework's namespace becomes a scope of the service (a user, or memories shared at a customer)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Scope:
    user_id: str | None = None
    customer_id: str | None = None

    def fields(self) -> dict[str, str]:
        return {name: value for name, value in (("user_id", self.user_id), ("customer_id", self.customer_id)) if value}


ScopeOf = Callable[[tuple[str, ...]], Scope]


def default_scope_of(namespace: tuple[str, ...]) -> Scope:
    """`("users", user_id, …)` is the user's own; `("customers", customer_id, …)` is shared at the customer;
    `("customers", customer_id, "users", user_id, …)` is the user's within the customer."""
    if len(namespace) >= 4 and namespace[0] == "customers" and namespace[2] == "users":
        return Scope(user_id=namespace[3], customer_id=namespace[1])
    if len(namespace) >= 2 and namespace[0] == "users":
        return Scope(user_id=namespace[1])
    if len(namespace) >= 2 and namespace[0] == "customers":
        return Scope(customer_id=namespace[1])
    raise ValueError(
        f"namespace {namespace!r} names no scope: start it with ('users', user_id) or ('customers', customer_id), "
        "or give the store a scope_of of your own"
    )
