# METADATA
# title: create_before_destroy infection
# description: |
#   The "graph" stage. input.resources lists the configuration resources with
#   their configured create_before_destroy and their direct dependencies. A
#   resource that is not create_before_destroy itself is forced to it when any
#   resource that depends on it, directly or transitively, is
#   create_before_destroy: dependents force their dependencies, never the
#   reverse. `forced` maps each forced resource to the ids of the rules that
#   forced it.
package tenet.cbd

# Extension point force_create_before_destroy, defined by team rule files
# only: each element is a resource address that must be
# create_before_destroy, seen here as {"value": <the address>, "rule":
# <handle of the team rule>}. Those addresses infect their dependencies like
# configured ones. Undefined, it adds nothing.

dependencies := {r.address: r.depends_on | some r in input.resources}

configured := {r.address | some r in input.resources; r.create_before_destroy}

team_forced := {f.value | some f in data.tenet.cbd.force_create_before_destroy} - configured

# tenet.reachable is a linear breadth-first search provided by the engine
# (graph.reachable re-expands shared dependencies and explodes on diamonds).

# METADATA
# title: A resource is create_before_destroy when a transitive dependent is
# custom:
#   id: tenet.cbd.forced_by_dependent
infected := {addr |
	some addr in tenet.reachable(dependencies, configured | team_forced)
	not addr in configured
	not addr in team_forced
}

forced := object.union(
	{addr: ["tenet.cbd.forced_by_dependent"] | some addr in infected},
	{addr: rules |
		some addr in team_forced
		rules := [f | some f in data.tenet.cbd.force_create_before_destroy; f.value == addr]
	},
)
