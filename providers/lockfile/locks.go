package lockfile

import (
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/providers/getproviders"
)

// Locks is the content of a lock file: at most one entry per provider.
type Locks struct {
	providers map[addrs.Provider]*ProviderLock
}

// ProviderLock is one provider block.
type ProviderLock struct {
	Provider    addrs.Provider
	Version     getproviders.Version
	Constraints getproviders.Constraints
	// Hashes is sorted and free of duplicates.
	Hashes []getproviders.Hash
	// DeclRange is the block's header in the file it was read from, for
	// diagnostics about the entry; zero for entries made in memory.
	DeclRange hcl.Range
}

// New returns empty locks.
func New() *Locks { return &Locks{providers: map[addrs.Provider]*ProviderLock{}} }

// Provider returns the entry for p, or nil.
func (l *Locks) Provider(p addrs.Provider) *ProviderLock {
	if l == nil {
		return nil
	}
	return l.providers[p]
}

// SetProvider records (or replaces) the entry for p.
func (l *Locks) SetProvider(p addrs.Provider, v getproviders.Version, c getproviders.Constraints, hashes []getproviders.Hash) *ProviderLock {
	e := &ProviderLock{Provider: p, Version: v, Constraints: c, Hashes: normalizeHashes(hashes)}
	l.providers[p] = e
	return e
}

// RemoveProvider drops the entry for p, when a configuration no longer
// needs it.
func (l *Locks) RemoveProvider(p addrs.Provider) { delete(l.providers, p) }

// AllProviders returns the entries in the file's order: by address.
func (l *Locks) AllProviders() []*ProviderLock {
	if l == nil {
		return nil
	}
	out := make([]*ProviderLock, 0, len(l.providers))
	for _, e := range l.providers {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b *ProviderLock) int {
		switch {
		case a.Provider.Less(b.Provider):
			return -1
		case b.Provider.Less(a.Provider):
			return 1
		}
		return 0
	})
	return out
}

// Equal reports whether both hold the same entries, so that callers can
// skip rewriting an unchanged file.
func (l *Locks) Equal(o *Locks) bool {
	a, b := l.AllProviders(), o.AllProviders()
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].equal(b[i]) {
			return false
		}
	}
	return true
}

func (e *ProviderLock) equal(o *ProviderLock) bool {
	return e.Provider == o.Provider && e.Version.Same(o.Version) &&
		e.Constraints.String() == o.Constraints.String() && slices.Equal(e.Hashes, o.Hashes)
}

// ContainsAny reports whether any of hashes is locked for the entry.
func (e *ProviderLock) ContainsAny(hashes []getproviders.Hash) bool {
	return getproviders.MatchesAny(hashes, e.Hashes)
}

func normalizeHashes(hs []getproviders.Hash) []getproviders.Hash {
	out := slices.Clone(hs)
	slices.Sort(out)
	return slices.Compact(out)
}
