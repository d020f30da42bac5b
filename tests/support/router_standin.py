"""A stand-in for the load balancer in front of verl's rollout servers (verl >= 0.9), loaded
through verl's own router plugin (``actor_rollout_ref.rollout.router_config_path``: a YAML naming
``router_class``; verl 0.9.1 ``verl/workers/rollout/router.py``, ``get_router_handle``).

verl's default ``GlobalRequestLoadBalancer`` is a Ray actor that routes generation requests to
rollout servers. Here there are none (``standins.StubReplica``) and nothing sends it a request (the
stand-in agent loop answers from the ground truth), so this one implements verl's protocol plainly
(``RequestLoadBalancer``: least in-flight, no sticky sessions). It
lives in a module that does not import verl: its actor process starts in a fraction of a second,
where verl's own costs a full ``import verl`` (about 3 CPU-seconds) in every fit.
"""


class StubRouter:
    """verl's ``RequestLoadBalancer`` protocol (``verl/workers/rollout/router.py``) over the server
    table verl gives a router plugin: least in-flight, no sticky sessions, no verl import."""

    def __init__(self, servers, config):
        self.servers = dict(servers)
        self.config = dict(config)
        self.inflight = dict.fromkeys(self.servers, 0)

    def acquire_server(self, request_id, **extra):
        if not self.servers:
            raise RuntimeError("no rollout server in the pool")
        server_id = min(self.servers, key=lambda server: self.inflight.get(server, 0))
        self.inflight[server_id] = self.inflight.get(server_id, 0) + 1
        return server_id, self.servers[server_id]

    def require_acquire_fields(self) -> list:
        return []

    def require_release_fields(self) -> list:
        return []

    def release_server(self, server_id, request_id=None) -> None:
        if self.inflight.get(server_id):
            self.inflight[server_id] -= 1

    def add_servers(self, servers) -> None:
        for server_id, handle in servers.items():
            self.servers[server_id] = handle
            self.inflight.setdefault(server_id, 0)

    def remove_servers(self, server_ids) -> None:
        for server_id in server_ids:
            self.servers.pop(server_id, None)
            self.inflight.pop(server_id, None)

    def get_all_servers(self) -> list:
        return sorted(self.servers)

    def get_status(self) -> dict:
        active = [server for server, count in self.inflight.items() if count]
        return {"servers": sorted(self.servers), "total_inflight": self.get_total_inflight(), "active_servers": active}

    def clear_sticky_cache(self) -> dict:
        return {"cleared_entries": 0, "server_loads": dict(self.inflight)}

    def get_total_inflight(self) -> int:
        return sum(self.inflight.values())
