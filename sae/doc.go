// Package sae is WPA3-Personal's Simultaneous Authentication of Equals
// (IEEE 802.11-2020 12.4) for an AP, as hostapd 2.11 runs it in
// infrastructure mode: the commit and confirm codecs, the password element
// by hunting and pecking or by hash-to-element, the keys, the AP's
// per-peer state machine with its anti-clogging tokens, and a station side
// for tests and the simulator. It is pure: no I/O, no goroutines, time and
// randomness passed in.
//
// # Pieces
//
//   - Codecs (codec.go): zero-copy views of a Commit (ParseCommit) and a
//     Confirm (ParseConfirm), appenders for both, and the Password
//     Identifier, Rejected Groups and Anti-Clogging Token Container
//     elements; parsing follows sae_parse_commit (a token before the
//     scalar without H2E, in its container with it; an odd Rejected
//     Groups length refused).
//   - Groups 19 (P-256, the default), 20 (P-384) and 21 (P-521): points
//     from filippo.io/nistec, field and scalar arithmetic from
//     filippo.io/bigmod, HMAC, HKDF and SHA-2 from the standard library.
//     nistec refuses encodings off the curve or with a coordinate >= p and
//     errors on BytesX at infinity; it reduces scalars mod r, so a peer's
//     scalar is range-checked here (1 < s < r).
//   - Password element: hunting and pecking (hnp.go) per exchange, or
//     hash-to-element (h2e.go): a PT per password, identifier, SSID and
//     group computed once (NewAuthenticator; a new one on reload), then per
//     exchange PWE = val * PT with val from the two MACs.
//   - Keys (keys.go): commit-scalar and COMMIT-ELEMENT from random rand
//     and mask; K = rand * (peer-scalar * PWE + PEER-ELEMENT), refused at
//     infinity; keyseed = HMAC(salt, k) with a zero salt, or under H2E the
//     Rejected Groups lists; KCK || PMK = KDF(keyseed, "SAE KCK and PMK",
//     (scalar + peer-scalar) mod r); PMKID its first 16 octets; confirms
//     compared in constant time. H&P uses SHA-256, H2E the group's hash.
//   - Authenticator (authenticator.go): one per BSS, with an instance per
//     peer in Nothing, Committed, Confirmed or Accepted, as
//     handle_auth_sae and sae_sm_step: a Commit answered with our Commit
//     only, our Confirm after the station's (sae_confirm_immediate sends
//     both); a new Commit in Committed restarts, keeping PWE and Commit
//     in the same group, clean in another; status 77 with the group
//     echoed for a group not in sae_groups; sae_sync counts Commits in
//     Confirmed and Confirms in Accepted, past it the instance is back to
//     Nothing and disabled for 10 s; a replayed Confirm in Accepted is
//     ignored; a Confirm mismatch gets status 15; a Commit whose status
//     does not fit sae_pwe is dropped with an instance and gets status 1
//     without; an unknown identifier gets 123; H2E Commits carry 126;
//     identifiers change the effective sae_pwe as sae_status_success.
//     There is no retransmission timer of the AP's own: stations retry.
//   - Queue (queue.go): the BSS's received frames before any work, at
//     hostapd's pace (below).
//   - Tokens (token.go): hostapd's comeback tokens: index || HMAC under a
//     key that rotates every 60 s, bound to the MAC, single use, a wrong
//     or reused one dropped without a reply; Check allocates nothing.
//
// # Constant time
//
// Hunting and pecking is what an attacker can run from any MAC, so its
// time and memory accesses must not depend on the password
// (Dragonblood). pweHuntAndPeck runs at least 40 iterations; each computes
// one HMAC seed, one KDF, a range check by borrow arithmetic, x^3 + ax + b
// (three Mul, two Add), and a quadratic-residue test on y^2 * r^2 * q
// with r fresh and random and q a random residue or non-residue picked
// by r's parity (one Exp, three Mul): the Legendre symbol is computed by
// exponentiation (bigmod's Exp is constant time for a public exponent),
// and the blinding makes even its input unrelated to the password, as
// hostapd's dragonfly_is_quadratic_residue_blind. After the hit every
// iteration hashes a random stub of the password's length, picked by a
// constant-time select; x and the seed's parity are kept by selects; a
// value >= p is reduced by constant-time Mul and Add and tested anyway,
// its result masked (bigmod's SetOverflowingBytes is avoided: its size
// check loops over the bit length of the top word). y is one Exp by
// (p+1)/4 and its sign a select of y or p - y. Loop exits past 40 depend
// on the first hit only (hostapd's condition; the chance that matters is
// 2^-40). The only branches are on public values: the iteration count,
// the group, a nil test meter. TestHuntAndPeckSameWork counts every
// iteration's Exp, Mul, Add, selects, selected octets, HMACs and random
// draws through an internal meter (nil in production) and finds them
// equal for passwords found at iteration 1 and at iteration 40.
//
// Hash-to-element's password-dependent work (the PT, RFC 9380's
// simplified SWU with z = -10, -12, -4) runs once at start and on reload,
// not per frame, and is constant time too: inversion by exponentiation
// (0 maps to 0), square root by exponentiation, choices by selects. Per
// exchange, H2E does scalar multiplications of nistec, which are constant
// time, with val from public MACs. bigmod's InverseVarTime is never used;
// math/big only computes the groups' public constants.
//
// # Seams for the core
//
// Received frames first wait in the BSS's Queue (queue.go), as in
// hostapd's handle_auth, before any work, the anti-clogging check
// included: every Commit, and a Confirm from a peer with a frame queued
// (so that it follows that peer's Commit). It holds 15 frames, their
// bodies copied into one buffer made once; a newer frame from a peer
// with the same transaction takes its queued one's place, and a frame
// that finds it full is dropped, a retry too (room is checked first, as
// hostapd does: under a flood a forged retry cannot take a station's
// place), with no reply (the core counts it). The
// core works it on its timers, one frame at a time: a frame into an
// empty queue at once, the next 10 ms per frame still queued after the
// last (auth_sae_process_commit). A lone station is so served at once,
// while a flood, which keeps the queue full, gets a frame worked every
// 140 ms and nothing at all sent in answer to the rest, where answering
// every Commit with a token request would cost the datapath its CPU.
// The frames queued count toward anti_clogging_threshold beside the open
// instances and the commits in work (SetQueue), as the queue's length
// does in hostapd's use_anti_clogging. A frame the core takes from the
// queue, and a Confirm it did not queue, goes to that BSS's
// Authenticator:
//
//	r := auth.Handle(now, rng, peer, sae.Frame{Transaction, Status, Body})
//	// r.Replies: Authentication frames to send, in order (algorithm 3,
//	//   these transaction and status codes and bodies)
//	// r.Drop: why nothing was sent, for a counter
//	// r.Accepted: PMK, PMKID, group and method for the PMKSA and the
//	//   4-way handshake (AKM 8)
//	// r.Job: elliptic-curve work to do before the answer
//
// Handle itself does only cheap work: parsing, range and curve checks,
// token checks, the state machine. Everything expensive (the PWE, our
// commit, K and the keys) is a Job, which holds copies of what it reads
// and touches nothing else, so it runs off the core's loop:
//
//	go func() { job.Run(yield); results <- job }() // a worker, under a budget
//	r = auth.Finish(now, job)                       // back on the core's loop
//
// The reader given to Handle goes into the job, so it must be safe to
// read from the job's goroutine (crypto/rand.Reader is); the simulator,
// which runs jobs inline, may pass a seeded one.
//
// A newer Commit from a peer whose job is still in work gives a new job
// that supersedes the old one: Finish drops the old job (DropStale), as
// it does a job whose instance was forgotten, and such a job not yet
// started does no work when it runs, so that a peer repeating Commits
// spends none of the worker's budget on results thrown away. A Confirm
// from a peer whose job is in work is dropped (DropBusy), as it would
// be checked before the Commit it follows; the station's retry finds
// the exchange done, where status 15 would end its attempt. The core
// hands its jobs to the worker at its next flush of output; they are at
// most one per frame worked, which the Queue paces. Every job goes back
// through Finish, run or not, so that jobs in work stay counted toward
// anti_clogging_threshold: they are the instances hostapd, which works a
// Commit at once, would have in Committed. Instances are at most
// Config.MaxPeers; one idle for 5 s (no frame, no job in work, no
// disable period) is abandoned: it stops counting toward the threshold
// and gives its room to a new peer, so commits that are never confirmed
// cannot lock stations out. Forget drops an instance at once.
//
// The workers run jobs under an explicit budget of CPU per interval and
// pass Run a yield that gives the CPU back between the job's pieces, so
// that even with GOMAXPROCS=1 the datapath does not wait behind a commit
// (a busy goroutine is otherwise preempted only every 10 ms or so): a
// piece is at most one scalar multiplication or one exponentiation (a
// hunting-and-pecking iteration, a draw of its blinding, its square
// root), the smallest unit filippo.io/nistec and bigmod offer. Yields
// sit at the same places whatever the password, so they add no timing
// signal. A job the budget cannot take is dropped and counted. The
// simulator runs jobs inline in virtual time through the same Handle, Run
// and Finish. Several BSSes on one radio each get their own Authenticator
// (their own SSID, passwords, PTs and tokens); the budget is the radio's,
// shared between them, and the workers run the BSSes' jobs in turn
// (NextInTurn), so that a flood aimed at one delays another's joins by a
// job, not by its backlog.
//
// # Not here
//
// SAE-PK, FFC groups, SAE-EXT-KEY (AKMs 24/25) and mesh behaviour are not
// implemented. The PMKSA cache, the association checks (the RSNXE's H2E
// bit, sae_require_mfp) and the 4-way handshake for AKM 8 belong to the
// core and rsn.
package sae
