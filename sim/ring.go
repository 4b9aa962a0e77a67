package sim

// ring is a FIFO of packets that grows by doubling and is then reused.
type ring struct {
	p          []*packet
	head, size int
}

func (r *ring) push(p *packet) {
	if r.size == len(r.p) {
		n := make([]*packet, max(16, 2*len(r.p)))
		for i := 0; i < r.size; i++ {
			n[i] = r.p[(r.head+i)%len(r.p)]
		}
		r.p, r.head = n, 0
	}
	r.p[(r.head+r.size)%len(r.p)] = p
	r.size++
}

func (r *ring) peek() *packet { return r.p[r.head] }

func (r *ring) pop() *packet {
	p := r.p[r.head]
	r.p[r.head] = nil
	r.head = (r.head + 1) % len(r.p)
	r.size--
	return p
}
