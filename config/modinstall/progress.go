package modinstall

import (
	"sort"
	"sync"
)

// progress hands init's lines to Options.Progress in OpenTofu's order —
// depth first, calls in name order — while the packages of a level
// download in parallel. A module's lines go out as soon as everything
// before it in that order has gone out, so a download under way shows
// its "Downloading" line at once, and lines never come out of order.
type progress struct {
	mu    sync.Mutex
	emit  func(Event) // nil: nothing is shown, nothing is kept
	nodes map[string]*progressNode
}

// progressNode is one module of the tree, by key ("" is the root).
type progressNode struct {
	events []Event
	sent   int
	// done: its call was handled, no more lines will come for it.
	done bool
	// childrenKnown: its module calls were read; children is their keys
	// in name order.
	childrenKnown bool
	children      []string
	// complete: it and its whole subtree went out.
	complete bool
}

func newProgress(emit func(Event)) *progress {
	return &progress{emit: emit, nodes: map[string]*progressNode{"": {done: true}}}
}

func (p *progress) node(key string) *progressNode {
	n := p.nodes[key]
	if n == nil {
		n = &progressNode{}
		p.nodes[key] = n
	}
	return n
}

// add records a line of the module key.
func (p *progress) add(key string, e Event) {
	if p.emit == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.node(key)
	n.events = append(n.events, e)
	p.pump("")
}

// callsRead records the keys of the modules key calls.
func (p *progress) callsRead(key string, children []string) {
	if p.emit == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.node(key)
	n.children = append([]string(nil), children...)
	sort.Strings(n.children)
	n.childrenKnown = true
	for _, c := range n.children {
		p.node(c)
	}
	p.pump("")
}

// callDone says no more lines will come for key.
func (p *progress) callDone(key string) {
	if p.emit == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.node(key).done = true
	p.pump("")
}

// finish sends every line still held, in order: the walk is over,
// successfully or not.
func (p *progress) finish() {
	if p.emit == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, n := range p.nodes {
		n.done, n.childrenKnown = true, true
	}
	p.pump("")
}

// pump sends what can go out of key's subtree and reports whether all
// of it has.
func (p *progress) pump(key string) bool {
	n := p.nodes[key]
	if n.complete {
		return true
	}
	for ; n.sent < len(n.events); n.sent++ {
		p.emit(n.events[n.sent])
	}
	if !n.done || !n.childrenKnown {
		return false
	}
	for _, c := range n.children {
		if !p.pump(c) {
			return false
		}
	}
	n.complete = true
	return true
}
