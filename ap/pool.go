package ap

// slabSize holds the largest 802.3 frame (1518 with a VLAN tag) with room in
// front for a radiotap header, an 802.11 QoS header and LLC/SNAP, and room
// behind for a future MIC.
const (
	slabSize = 2048
	headroom = 192
)

// pool is a fixed set of equal slabs allocated once. Queued frames and
// output frames live in slabs and are named by index, so queues hold small
// handles and nothing grows with load.
type pool struct {
	mem  []byte
	size int
	free []uint32
}

func newPool(n int) *pool { return newPoolOf(n, slabSize) }

// newPoolOf returns n slabs of size bytes.
func newPoolOf(n, size int) *pool {
	p := &pool{mem: make([]byte, n*size), size: size, free: make([]uint32, n)}
	for i := range p.free {
		p.free[i] = uint32(n - 1 - i)
	}
	return p
}

// get returns a free slab, or false when all are in use.
func (p *pool) get() (uint32, bool) {
	if len(p.free) == 0 {
		return 0, false
	}
	h := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	return h, true
}

func (p *pool) put(h uint32) { p.free = append(p.free, h) }

// slab returns the whole slab h.
func (p *pool) slab(h uint32) []byte {
	off := int(h) * p.size
	return p.mem[off : off+p.size : off+p.size]
}
