package ap

// slabSize holds the largest 802.3 frame (1518 with a VLAN tag) with room in
// front for a radiotap header, an 802.11 QoS header and LLC/SNAP, and room
// behind for a future MIC.
const (
	slabSize = 2048
	headroom = 192
)

// MaxWiredFrame is the longest 802.3 frame the core takes from the wired
// side (HandleWired drops longer ones): what fits a slab behind the
// headroom, with room for a MIC.
const MaxWiredFrame = slabSize - headroom - 8

// chunkBytes is how much of a pool is allocated at a time: slabs are
// made as the frames held at once first need them, so that a quiet AP's
// heap (and the collector's goal, twice the live heap) stays small, and
// the pool reaches its whole size only under the load that fills it.
const chunkBytes = 128 << 10

// pool is a fixed set of at most n equal slabs, allocated a chunk at a
// time and never given back. Queued frames and output frames live in slabs
// and are named by index, so queues hold small handles and nothing grows
// beyond the pool's bound with load; once the load has reached a level,
// serving it again allocates nothing.
type pool struct {
	// slabs has every slab of the chunks allocated so far, cut once: a
	// frame's path looks its slab up several times, and indexing costs
	// less than a chunk's shift, mask, multiply and bounds checks, for a
	// slice header of 24 bytes per slab.
	slabs [][]byte
	shift uint // a chunk holds 1<<shift slabs
	size  int
	n     int // slabs at most
	made  int // slabs handed out so far; those of slabs past it wait for their first get
	free  []uint32
}

func newPool(n int) *pool { return newPoolOf(n, slabSize) }

// newPoolOf returns a pool of at most n slabs of size bytes.
func newPoolOf(n, size int) *pool {
	var shift uint
	for 2<<shift <= chunkBytes/size {
		shift++
	}
	per := 1 << shift
	return &pool{slabs: make([][]byte, 0, min(n, per)), shift: shift, size: size, n: n, free: make([]uint32, 0, n)}
}

// get returns a free slab, or false when all n are in use.
func (p *pool) get() (uint32, bool) {
	if len(p.free) > 0 {
		h := p.free[len(p.free)-1]
		p.free = p.free[:len(p.free)-1]
		return h, true
	}
	if p.made == p.n {
		return 0, false
	}
	if p.made == len(p.slabs) { // a new chunk
		c := make([]byte, min(1<<p.shift, p.n-p.made)*p.size)
		for off := 0; off < len(c); off += p.size {
			p.slabs = append(p.slabs, c[off:off+p.size:off+p.size])
		}
	}
	p.made++
	return uint32(p.made - 1), true
}

func (p *pool) put(h uint32) { p.free = append(p.free, h) }

// slab returns the whole slab h.
func (p *pool) slab(h uint32) []byte { return p.slabs[h] }

// unmade is the bytes of slabs the pool may still allocate.
func (p *pool) unmade() int64 { return int64(p.n-p.made) * int64(p.size) }

// bound is the bytes the pool holds when every slab is made.
func (p *pool) bound() int64 { return int64(p.n) * int64(p.size) }
