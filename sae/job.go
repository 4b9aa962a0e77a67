package sae

import (
	"errors"
	"io"
	"sync/atomic"

	"filippo.io/bigmod"
)

var errSuperseded = errors.New("sae: job superseded by a newer commit")

// Job is the elliptic-curve work one Commit needs: the password element
// (unless kept), our commit, K and the keys. It holds copies of what it
// reads, touches nothing of the Authenticator, and so may run on another
// goroutine; its result goes back through Authenticator.Finish.
type Job struct {
	gen       uint32
	peer, own MAC
	g         *Group
	h2e       bool
	rng       io.Reader
	password  []byte
	pt        *PT
	reuse     *exchange // a restart in the same group keeps PWE and commit

	peerScalar             *bigmod.Nat
	peerElem               point
	scalarBytes, elemBytes []byte
	rejected               []byte
	hasRejected            bool

	x         *exchange
	err       error
	finished  bool // Finish has taken it
	cancelled bool // Cancel was called: never run
	// superseded is set on the core's goroutine when a newer Commit from
	// the peer made this job's result useless, read by Run on the worker's.
	superseded atomic.Bool
}

// Cancel marks a job that will not run (the worker's budget or queue had
// no room for it); Finish then drops the Commit without a reply, as
// hostapd drops a commit its queue cannot hold.
func (j *Job) Cancel() { j.cancelled = true }

// Peer is the station the job is for.
func (j *Job) Peer() MAC { return j.peer }

// Own is the BSS the job is for (its BSSID): a worker shared by the
// radio's BSSes shares itself out by it.
func (j *Job) Own() MAC { return j.own }

// Run does the work. yield, when not nil, is called between its pieces
// so that a scheduler can cut the work up: between the random draws of
// hunting-and-pecking's blinding and between its iterations, and around
// each scalar multiplication (the PWE from the PT, our commit, and K's
// two), so that no piece does more than one scalar multiplication or one
// exponentiation. The pieces and their order do not depend on the
// password, only the iteration count past 40 does, as in hostapd.
// A job superseded before it starts does nothing: Finish drops it.
func (j *Job) Run(yield func()) {
	if j.superseded.Load() {
		j.err = errSuperseded
		return
	}
	if yield == nil {
		yield = func() {}
	}
	x := j.reuse
	if x == nil {
		var pwe point
		var err error
		if j.pt != nil {
			pwe, err = j.pt.pwe(j.own, j.peer)
		} else {
			pwe, err = j.g.pweHuntAndPeck(j.own, j.peer, j.password, j.rng, nil, yield)
		}
		if err == nil {
			yield()
			x, err = j.g.newCommit(pwe, j.rng)
		}
		if err != nil {
			j.err = err
			return
		}
		yield()
	} else {
		c := *x
		x = &c
	}
	x.h2e = j.h2e
	x.ownHigher = string(j.own[:]) > string(j.peer[:])
	x.ownRejected = nil
	x.peerRejected = nil
	if j.hasRejected {
		x.peerRejected = j.rejected
	}
	j.err = x.process(j.peerScalar, j.peerElem, j.scalarBytes, j.elemBytes, yield)
	j.x = x
}
