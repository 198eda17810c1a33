# Team extension point of the moves stage: computed moves (package metadata
# lives in moves.rego).
#
# Team rule files add [from, to] address pairs, computed from the resources
# of the previous run's state (input.state.resources) and of the
# configuration (input.config.resources), e.g. every resource renamed by a
# prefix. The engine adds each pair as a moved block would be, after the
# configuration's own moved blocks; a moved block with the same from address
# wins. The query evaluated is `computed`, with its own input (see
# rules/team_moves.go); the rules of moves.rego are not evaluated with it.
package tenet.moves

# The extension point moves is defined by team rule files only; undefined,
# it adds nothing. Each element is seen here as {"value": [from, to],
# "rule": <handle of the team rule>}.
computed := [m | some m in data.tenet.moves.moves]
