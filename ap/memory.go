package ap

// The core's heap is bounded: its tables are allocated by New, its slab
// pools grow a chunk at a time up to their size with the frames held at
// once, and a station holds at most stationHeapMax beyond its slot (its
// rate table from its first data frame, its keys and handshake). A quiet
// AP therefore starts small (TestStartupHeap), and no input takes it past
// what it holds at start plus HeapReserve; the daemon derives the
// runtime's soft memory limit from that sum.

// stationHeapMax bounds what one station holds beyond its slot: a rate
// table (about 24 KiB, TestIdleStationMemory) and, on an RSN, its
// handshake, keys and SA Query.
const stationHeapMax = 32 << 10

// HeapReserve is the most the core may still allocate beyond what it holds
// now, in bytes: slabs its pools have not made yet, and a full table of
// stations each holding stationHeapMax.
func (a *AP) HeapReserve() int64 {
	r := a.pool.unmade() + int64(a.cfg.MaxStations)*stationHeapMax
	if a.big != nil {
		r += a.big.unmade()
	}
	return r
}
