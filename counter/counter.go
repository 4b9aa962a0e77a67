package counter

import (
	"strconv"
	"strings"
)

// ID names one of the core's counters; it indexes a Set.
type ID uint8

// Set holds one value per ID: the core's running totals, and at a snapshot
// the gauges (the station table and the backlog) filled in.
type Set [NumIDs]uint64

// String lists the non-zero entries as key=value, for test failures and
// logs.
func (s *Set) String() string {
	var b strings.Builder
	for id, v := range s {
		if v == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(ID(id).Key())
		b.WriteByte('=')
		b.WriteString(strconv.FormatUint(v, 10))
	}
	return b.String()
}

// Kind is a metric type.
type Kind uint8

// The kinds of the table's families.
const (
	Counter Kind = iota // only grows (since the core started)
	Gauge               // a level at the snapshot
)

func (k Kind) String() string {
	if k == Gauge {
		return "gauge"
	}
	return "counter"
}

// Family is one metric family of the exporter.
type Family struct {
	Name string // the Prometheus name, airq_ prefix and _total suffix included
	Help string
	Kind Kind
	// Label tells the family's members apart; empty for a family of one.
	Label string
}

// Desc is one entry of the table.
type Desc struct {
	Key    string  // the status key, in the text form and in JSON
	Family *Family // where the exporter shows it
	Value  string  // Family.Label's value for this entry; empty for a family of one
}

// Desc returns id's entry of the table.
func (id ID) Desc() Desc { return table[id] }

// Family is the family id belongs to.
func (id ID) Family() *Family { return table[id].Family }

// Sum adds up the members of f: a family's members are disjoint, so this
// counts each frame once.
func (s *Set) Sum(f *Family) uint64 {
	var n uint64
	for _, id := range members[f] {
		n += s[id]
	}
	return n
}

// Key is id's status key.
func (id ID) Key() string { return table[id].Key }

func (id ID) String() string {
	if id < NumIDs {
		return table[id].Key
	}
	return "counter(" + strconv.Itoa(int(id)) + ")"
}

var (
	byKey             = indexKeys()
	families, members = indexFamilies()
)

func indexKeys() map[string]ID {
	m := make(map[string]ID, NumIDs)
	for id := range NumIDs {
		m[table[id].Key] = id
	}
	return m
}

func indexFamilies() ([]*Family, map[*Family][]ID) {
	var fs []*Family
	m := map[*Family][]ID{}
	for id := range NumIDs {
		f := table[id].Family
		if _, ok := m[f]; !ok {
			fs = append(fs, f)
		}
		m[f] = append(m[f], id)
	}
	return fs, m
}

// ByKey finds the counter with a status key.
func ByKey(key string) (ID, bool) {
	id, ok := byKey[key]
	return id, ok
}

// Families lists the families in the order of the table's first entry of
// each. The caller must not modify them.
func Families() []*Family { return families }

// Members lists the entries of f in table order. The caller must not modify
// the slice.
func Members(f *Family) []ID { return members[f] }
