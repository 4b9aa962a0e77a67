package config

import (
	"slices"
	"strings"
)

// nearest returns the candidates closest to s by edit distance (case
// ignored), at most three at the same distance, for "did you mean":
// within one edit for short names, up to three for long ones. None is
// close enough: nil.
func nearest(s string, candidates []string) []string {
	s = strings.ToLower(s)
	limit := min(1+len(s)/4, 3)
	type near struct {
		name string
		d    int
	}
	var found []near
	for _, c := range candidates {
		if d := editDistance(s, strings.ToLower(c), limit); d <= limit {
			found = append(found, near{c, d})
		}
	}
	slices.SortFunc(found, func(a, b near) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return strings.Compare(a.name, b.name)
	})
	var out []string
	for _, n := range found[:min(len(found), 3)] {
		if n.d == found[0].d {
			out = append(out, n.name)
		}
	}
	return out
}

// editDistance is the Levenshtein distance of a and b, or limit+1 once it
// is sure to exceed limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
