package sae

import "bytes"

// NextInTurn returns the index in queue, jobs in the order they came, of
// the one a worker runs next when a radio's BSSes take turns: the oldest
// of the first BSS after last (the one whose job ran last), in address
// order, that has one waiting, wrapping around to the lowest; -1 for an
// empty queue. bss names a job's BSS (Job.Own). A flood aimed at one BSS
// then delays another's join by one job, not by the flood's backlog, as
// hostapd's bss= sections each work through their own queue. One pass,
// nothing allocated.
func NextInTurn[T any](queue []T, bss func(T) MAC, last MAC) int {
	pick := -1
	var p MAC
	for i, q := range queue {
		b := bss(q)
		if pick < 0 {
			pick, p = i, b
			continue
		}
		after, pAfter := bytes.Compare(b[:], last[:]) > 0, bytes.Compare(p[:], last[:]) > 0
		// Those after last come first, each group in address order.
		if after != pAfter {
			if after {
				pick, p = i, b
			}
		} else if bytes.Compare(b[:], p[:]) < 0 {
			pick, p = i, b
		}
	}
	return pick
}
