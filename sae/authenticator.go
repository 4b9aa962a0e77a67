package sae

import (
	"encoding/binary"
	"encoding/hex"
	"io"
	"strconv"
	"time"
)

// PWEMode is sae_pwe: how the password element is derived.
type PWEMode uint8

const (
	HuntAndPeck   PWEMode = 0 // sae_pwe=0, hostapd's default
	HashToElement PWEMode = 1 // sae_pwe=1
	BothMethods   PWEMode = 2 // sae_pwe=2
)

// DefaultSync is hostapd 2.11's sae_sync (dot11RSNASAESync).
const DefaultSync = 3

// disablePeriod is how long an instance past sae_sync stays disabled.
const disablePeriod = 10 * time.Second

// instanceTimeout is how long an instance waits for its peer's next
// frame. hostapd retransmits and gives up after sae_sync tries, a fraction
// of a second; here stations retry, and an instance idle this long is
// abandoned: it no longer counts toward anti_clogging_threshold and its
// room in the table goes to the next peer.
const instanceTimeout = 5 * time.Second

// State is an SAE instance's state (sae.h's enum sae_state).
type State uint8

const (
	Nothing State = iota
	Committed
	Confirmed
	Accepted
)

func (s State) String() string {
	return [...]string{"Nothing", "Committed", "Confirmed", "Accepted"}[s]
}

// Password is one sae_password entry: the password, an optional
// identifier, and an optional peer it is limited to.
type Password struct {
	Password   []byte
	Identifier []byte // empty: none
	Peer       MAC
	AnyPeer    bool // Peer is ignored (hostapd: no mac= or ff:ff:ff:ff:ff:ff)
}

// Config is one BSS's SAE configuration, hostapd's keys by name.
type Config struct {
	SSID             []byte
	BSSID            MAC
	Groups           []uint16 // sae_groups; empty: 19 only
	PWE              PWEMode  // sae_pwe
	ConfirmImmediate bool     // sae_confirm_immediate
	Sync             int      // sae_sync
	// AntiCloggingThreshold is anti_clogging_threshold: at or above this
	// many instances in Committed or Confirmed plus commits in work and
	// frames queued (SetQueue), a commit without a valid token gets a
	// token request (0: always).
	AntiCloggingThreshold int
	Passwords             []Password // last match wins, as sae_get_password
	MaxPeers              int        // instances kept at most (the station table's size)
}

// Keys is what an accepted exchange hands to the 4-way handshake.
type Keys struct {
	PMK   [PMKLen]byte
	PMKID [PMKIDLen]byte
	Group uint16
	H2E   bool
}

// Frame is an SAE Authentication frame as the core sees it: transaction
// sequence number, status code, and the rest of the body.
type Frame struct {
	Transaction uint16
	Status      uint16
	Body        []byte
}

// Drop says why a frame got no reply; each is a counter.
type Drop uint8

const (
	DropNone         Drop = iota
	DropBadToken          // a wrong or reused anti-clogging token
	DropReflection        // our own commit sent back
	DropStatus            // a status code that does not fit sae_pwe, or a failure status
	DropDisabled          // the instance is disabled after a sync error
	DropSync              // past sae_sync
	DropReplay            // a replayed Confirm in Accepted
	DropTooMany           // no room for another instance
	DropBusy              // a Confirm while the peer's Commit is in work
	DropStale             // a job whose instance moved on
	DropRandomness        // the randomness source failed
	DropNotCommitted      // a Confirm that checks out in Nothing (hostapd ignores it)
	DropCancelled         // a job the worker could not take (Job.Cancel)
)

// Result is what a frame (or a finished job) produces: replies to send in
// order, keys when the exchange was accepted, a job when elliptic-curve
// work is needed first, or why nothing is sent.
type Result struct {
	Replies  []Frame
	Accepted *Keys
	Job      *Job
	Drop     Drop
	Removed  bool // the instance was discarded (hostapd's remove_sta)
}

// peer is one SAE instance.
type peer struct {
	state          State
	g              *Group
	x              *exchange
	h2e            bool
	pwID           []byte
	hasPWID        bool
	sendConfirm    uint16
	rc             uint16
	sync           int
	disabledUntil  time.Time
	acceptedScalar []byte
	commit         []byte // the Commit body we sent, for a resend
	gen            uint32
	busy           bool
	touched        time.Time // its last frame or finished job
	job            *Job      // the job in work, while busy
	fresh          bool      // created by a Commit whose job has not finished yet
}

// Authenticator is one BSS's SAE side: its instances by peer, its PTs and
// its tokens. It is used from one goroutine (the core's); only Job.Run
// runs elsewhere.
type Authenticator struct {
	cfg    Config
	pwe    PWEMode // effective, after identifiers (sae_status_success)
	pts    map[ptKey]*PT
	peers  map[MAC]*peer
	tokens Tokens
	jobs   int    // commits in work: they count toward the threshold
	gen    uint32 // the last job's number
	queue  *Queue // the BSS's frames not worked yet: they count too; nil: none
}

type ptKey struct {
	pw    int
	group uint16
}

// NewAuthenticator checks cfg and computes every PT the configuration
// can need (H2E enabled: one per password and enabled group).
func NewAuthenticator(cfg Config) (*Authenticator, error) {
	if len(cfg.Groups) == 0 {
		cfg.Groups = []uint16{19}
	}
	for _, id := range cfg.Groups {
		if !Supported(id) {
			return nil, &ConfigError{"sae_groups", "group not supported (19, 20, 21)"}
		}
	}
	if len(cfg.Passwords) == 0 {
		return nil, &ConfigError{"sae_password", "no password"}
	}
	if cfg.MaxPeers <= 0 {
		cfg.MaxPeers = maxAID
	}
	a := &Authenticator{cfg: cfg, pts: map[ptKey]*PT{}, peers: map[MAC]*peer{}}
	a.pwe = effectivePWE(cfg)
	if a.pwe != HuntAndPeck {
		for i, pw := range cfg.Passwords {
			for _, id := range cfg.Groups {
				g, _ := GroupByID(id)
				pt, err := g.DerivePT(cfg.SSID, pw.Password, pw.Identifier)
				if err != nil {
					return nil, err
				}
				a.pts[ptKey{i, id}] = pt
			}
		}
	}
	return a, nil
}

// ConfigError names the key a configuration fails on.
type ConfigError struct{ Key, Why string }

func (e *ConfigError) Error() string { return "sae: " + e.Key + ": " + e.Why }

// effectivePWE is sae_status_success's rule: identifiers on every
// password force H2E, on some turn H&P into both.
func effectivePWE(cfg Config) PWEMode {
	with, without := 0, 0
	for _, pw := range cfg.Passwords {
		if len(pw.Identifier) > 0 {
			with++
		} else {
			without++
		}
	}
	switch {
	case with > 0 && without == 0:
		return HashToElement
	case with > 0 && cfg.PWE == HuntAndPeck:
		return BothMethods
	}
	return cfg.PWE
}

// maxAID is the AID space: the default bound of the instances.
const maxAID = 2007

// SetBSSID names the AP's address for an authenticator built without it
// (a reload derives the PTs away from the core, which knows its BSSID).
// Call it before the first Handle.
func (a *Authenticator) SetBSSID(m MAC) { a.cfg.BSSID = m }

// SetMaxPeers bounds the instances at n (n < 1: the AID space), as the
// BSS's max_num_sta bounds its stations. Call it before the first Handle.
func (a *Authenticator) SetMaxPeers(n int) {
	if n < 1 {
		n = maxAID
	}
	a.cfg.MaxPeers = n
}

// SetQueue names the queue of the BSS's received frames, whose frames
// count toward anti_clogging_threshold as hostapd's queued commits
// (use_anti_clogging); the queue outlives a reload's authenticator.
func (a *Authenticator) SetQueue(q *Queue) { a.queue = q }

// PWE is the effective sae_pwe.
func (a *Authenticator) PWE() PWEMode { return a.pwe }

// statusFits is sae_status_success: does a Commit's status code fit the
// effective sae_pwe (SAE-PK is not offered).
func (a *Authenticator) statusFits(status uint16) bool {
	switch a.pwe {
	case HuntAndPeck:
		return status == StatusSuccess
	case HashToElement:
		return status == StatusSAEHashToElement
	}
	return status == StatusSuccess || status == StatusSAEHashToElement
}

func (a *Authenticator) groupEnabled(id uint16) bool {
	for _, g := range a.cfg.Groups {
		if g == id {
			return true
		}
	}
	return false
}

// password finds the password for peer and identifier, last match wins
// (sae_get_password); -1 when there is none.
func (a *Authenticator) password(peer MAC, id []byte, hasID bool) int {
	found := -1
	for i, pw := range a.cfg.Passwords {
		if !pw.AnyPeer && pw.Peer != peer {
			continue
		}
		if hasID != (len(pw.Identifier) > 0) || hasID && string(pw.Identifier) != string(id) {
			continue
		}
		found = i
	}
	return found
}

// open counts instances in Committed or Confirmed, commits in work and
// frames queued (use_anti_clogging: open + the queue's length); abandoned
// instances are dropped on the way.
func (a *Authenticator) open(now time.Time) int {
	n := a.jobs
	if a.queue != nil {
		n += a.queue.Len()
	}
	for m, p := range a.peers {
		if p.state != Accepted && a.abandoned(now, p) {
			delete(a.peers, m)
			continue
		}
		if p.state == Committed || p.state == Confirmed {
			n++
		}
	}
	return n
}

// abandoned reports whether p has been idle past instanceTimeout, with
// no job in work and no disable period running.
func (a *Authenticator) abandoned(now time.Time, p *peer) bool {
	return !p.busy && !now.Before(p.disabledUntil) && now.Sub(p.touched) >= instanceTimeout
}

// makeRoom drops the abandoned instances, Accepted ones too (their
// station is gone, or needs the instance no more than hostapd keeps its
// temporary data), and reports whether there is room for another.
func (a *Authenticator) makeRoom(now time.Time) bool {
	for m, p := range a.peers {
		if a.abandoned(now, p) {
			delete(a.peers, m)
		}
	}
	return len(a.peers) < a.cfg.MaxPeers
}

// State is peer's instance's state (Nothing when there is none).
func (a *Authenticator) State(peer MAC) State {
	if p := a.peers[peer]; p != nil {
		return p.state
	}
	return Nothing
}

// Forget drops peer's instance (the station left the table).
func (a *Authenticator) Forget(peer MAC) {
	if p := a.peers[peer]; p != nil && p.busy {
		p.job.superseded.Store(true)
	}
	delete(a.peers, peer)
}

// ForgetAll drops every instance (the BSS was switched off): jobs in
// work come back stale.
func (a *Authenticator) ForgetAll() {
	for m := range a.peers {
		a.Forget(m)
	}
}

// Handle takes one SAE Authentication frame from peer. now and rng are
// the caller's clock and randomness.
func (a *Authenticator) Handle(now time.Time, rng io.Reader, from MAC, f Frame) Result {
	p := a.peers[from]
	if p == nil {
		if f.Transaction != 1 || !a.statusFits(f.Status) {
			return reply(f.Transaction, StatusUnspecified, nil)
		}
		if len(a.peers) >= a.cfg.MaxPeers && !a.makeRoom(now) {
			return Result{Drop: DropTooMany}
		}
		p = &peer{fresh: true}
		a.peers[from] = p
	}
	p.touched = now
	switch f.Transaction {
	case 1:
		return a.commit(now, rng, from, p, f)
	case 2:
		return a.confirm(now, from, p, f)
	}
	if f.Status != StatusSuccess {
		return a.remove(from, p, Result{Drop: DropStatus})
	}
	return reply(f.Transaction, 14, nil) // unknown authentication transaction
}

func reply(trans, status uint16, body []byte) Result {
	return Result{Replies: []Frame{{Transaction: trans, Status: status, Body: body}}}
}

// remove is hostapd's remove_sta: an instance that never got past
// Nothing is not kept, unless it was disabled after a sync error (the
// peer would otherwise end its disable period with any failed frame;
// abandonment drops it once the period is over).
func (a *Authenticator) remove(from MAC, p *peer, r Result) Result {
	if p.state == Nothing && !p.busy && p.disabledUntil.IsZero() {
		delete(a.peers, from)
		r.Removed = true
	}
	return r
}

func (a *Authenticator) commit(now time.Time, rng io.Reader, from MAC, p *peer, f Frame) Result {
	if !a.statusFits(f.Status) {
		return a.remove(from, p, Result{Drop: DropStatus})
	}
	if now.Before(p.disabledUntil) {
		return Result{Drop: DropDisabled}
	}
	h2e := f.Status == StatusSAEHashToElement
	group, err := CommitGroup(f.Body)
	if err != nil {
		return a.remove(from, p, reply(1, StatusUnspecified, nil))
	}
	reuse := false
	if p.state == Committed {
		// hostapd restarts the instance: the same enabled group keeps the
		// PWE and the commit; another starts clean.
		if a.groupEnabled(group) && p.g != nil && p.g.ID == group && p.h2e == h2e {
			reuse = true
		} else {
			p.x, p.g, p.commit = nil, nil, nil
		}
		p.state = Nothing
	}
	g, ok := GroupByID(group)
	if !a.groupEnabled(group) || !ok {
		return a.remove(from, p, reply(1, StatusGroupNotSupported, binary.LittleEndian.AppendUint16(nil, group)))
	}
	c, err := ParseCommit(f.Body, g.primeLen, h2e)
	if err != nil {
		return a.remove(from, p, reply(1, StatusUnspecified, nil))
	}
	if p.state == Accepted && p.acceptedScalar != nil && string(p.acceptedScalar) == string(c.Scalar) {
		return reply(1, StatusUnspecified, nil)
	}
	ps, err := g.peerScalar(c.Scalar)
	if err != nil {
		return a.remove(from, p, reply(1, StatusUnspecified, nil))
	}
	pe, err := g.pointFromElement(c.Element)
	if err != nil {
		return a.remove(from, p, reply(1, StatusUnspecified, nil))
	}
	if p.x != nil && p.g == g && p.x.reflected(c.Scalar, c.Element) {
		return a.remove(from, p, Result{Drop: DropReflection})
	}
	if c.Token != nil && !a.tokens.Check(from, c.Token) {
		return a.remove(from, p, Result{Drop: DropBadToken})
	}
	for i := 0; i+1 < len(c.RejectedGroups); i += 2 {
		if a.groupEnabled(binary.LittleEndian.Uint16(c.RejectedGroups[i:])) {
			return a.remove(from, p, reply(1, StatusUnspecified, nil))
		}
	}
	if c.Token == nil && !reuse && a.open(now) >= a.cfg.AntiCloggingThreshold {
		tok, err := a.tokens.Request(nil, now, rng, from)
		if err != nil {
			return a.remove(from, p, Result{Drop: DropRandomness})
		}
		return a.remove(from, p, reply(1, StatusAntiCloggingToken, AppendTokenRequest(nil, group, tok, h2e)))
	}
	pw := a.password(from, c.PasswordID, c.HasPasswordID)
	if pw < 0 {
		return a.remove(from, p, reply(1, StatusUnknownPasswordID, nil))
	}
	if p.state == Confirmed {
		if p.sync > a.cfg.Sync {
			return a.syncLimit(now, p)
		}
		p.sync++
	}
	j := &Job{
		peer: from, own: a.cfg.BSSID, g: g, h2e: h2e, rng: rng,
		peerScalar: ps, peerElem: pe,
		scalarBytes: append([]byte(nil), c.Scalar...), elemBytes: append([]byte(nil), c.Element...),
		rejected: append([]byte(nil), c.RejectedGroups...), hasRejected: c.HasRejected,
	}
	switch {
	case reuse:
		j.reuse = p.x
	case h2e || c.HasPasswordID:
		// hostapd's auth_build_sae_commit takes the PT for an identifier
		// even in a Commit with status 0.
		if j.pt = a.pts[ptKey{pw, group}]; j.pt == nil {
			return a.remove(from, p, reply(1, StatusUnspecified, nil))
		}
	default:
		j.password = a.cfg.Passwords[pw].Password
	}
	if p.busy {
		p.job.superseded.Store(true)
	}
	a.gen++ // one sequence for the whole BSS: a forgotten peer's job never matches its successor
	p.gen, j.gen = a.gen, a.gen
	p.busy, p.job = true, j
	a.jobs++
	p.pwID, p.hasPWID = append([]byte(nil), c.PasswordID...), c.HasPasswordID
	return Result{Job: j}
}

// syncLimit is sae_check_big_sync: back to Nothing, disabled for 10 s.
func (a *Authenticator) syncLimit(now time.Time, p *peer) Result {
	p.state, p.sync = Nothing, 0
	p.disabledUntil = now.Add(disablePeriod)
	return Result{Drop: DropSync}
}

// Finish applies a job's result: the Commit (and with
// sae_confirm_immediate, or from Confirmed, the Confirm) to send.
func (a *Authenticator) Finish(now time.Time, j *Job) Result {
	if j.finished {
		return Result{Drop: DropStale}
	}
	j.finished = true
	a.jobs--
	p := a.peers[j.peer]
	if p == nil || p.gen != j.gen {
		return Result{Drop: DropStale}
	}
	p.busy, p.job = false, nil
	p.touched = now
	if j.cancelled {
		// The Commit was never worked on: an instance it created goes,
		// one it would have restarted stays as it was.
		if p.fresh {
			delete(a.peers, j.peer)
		}
		return Result{Drop: DropCancelled}
	}
	p.fresh = false
	if j.err != nil {
		p.x, p.commit = nil, nil
		return a.remove(j.peer, p, reply(1, StatusUnspecified, nil))
	}
	prev := p.state
	p.g, p.x, p.h2e = j.g, j.x, j.h2e
	if j.reuse == nil || p.commit == nil {
		status := StatusSuccess
		if j.h2e {
			status = StatusSAEHashToElement
		}
		body := AppendCommit(nil, j.g.ID, nil, j.x.scalar, j.x.element, p.pwID, p.hasPWID, j.h2e, nil)
		p.commit = append(binary.LittleEndian.AppendUint16(nil, status), body...)
	}
	r := Result{Replies: []Frame{{Transaction: 1, Status: binary.LittleEndian.Uint16(p.commit), Body: p.commit[2:]}}}
	switch prev {
	case Nothing, Accepted:
		p.state = Committed
		p.sync = 0
		// sae_sm_step sends both frames at once only from Nothing; a
		// reauthentication from Accepted waits for the station's Confirm.
		if prev == Nothing && a.cfg.ConfirmImmediate {
			r.Replies = append(r.Replies, a.sendConfirm(p))
			p.state = Confirmed
		}
	case Confirmed:
		r.Replies = append(r.Replies, a.sendConfirm(p))
	}
	return r
}

func (a *Authenticator) sendConfirm(p *peer) Frame {
	if p.sendConfirm < 0xffff {
		p.sendConfirm++
	}
	return Frame{Transaction: 2, Status: StatusSuccess, Body: AppendConfirm(nil, p.sendConfirm, p.x.confirm(p.sendConfirm, true))}
}

func (a *Authenticator) confirm(now time.Time, from MAC, p *peer, f Frame) Result {
	if f.Status != StatusSuccess {
		return a.remove(from, p, Result{Drop: DropStatus})
	}
	if len(f.Body) < 2 {
		return reply(2, StatusUnspecified, nil)
	}
	sc := binary.LittleEndian.Uint16(f.Body)
	if p.state == Accepted && (sc <= p.rc || sc == 0xffff) {
		return Result{Drop: DropReplay}
	}
	if p.busy {
		// The Commit it follows is still in work: hostapd works a Commit
		// whole before the next frame, so a Confirm never meets this.
		// Status 15 would end the station's attempt; its retry finds the
		// exchange done.
		return Result{Drop: DropBusy}
	}
	if p.x == nil || p.x.kck == nil {
		return reply(2, StatusChallengeFail, nil)
	}
	c, err := ParseConfirm(f.Body, len(p.x.kck))
	if err != nil || !p.x.checkConfirm(sc, c.Verifier) {
		return reply(2, StatusChallengeFail, nil)
	}
	p.rc = sc
	switch p.state {
	case Committed:
		r := Result{Replies: []Frame{a.sendConfirm(p)}}
		r.Accepted = a.accept(p)
		return r
	case Confirmed:
		return Result{Accepted: a.accept(p)}
	case Accepted:
		if p.sync > a.cfg.Sync {
			return a.syncLimit(now, p)
		}
		p.sync++
		r := Result{Replies: []Frame{a.sendConfirm(p)}}
		p.x = nil // hostapd frees the temporary data here
		return r
	}
	return Result{Drop: DropNotCommitted}
}

// accept is sae_accept_sta: the keys go to the caller, the peer's scalar
// is remembered so that its reuse is refused.
func (a *Authenticator) accept(p *peer) *Keys {
	p.state = Accepted
	p.sendConfirm = 0xffff
	p.acceptedScalar = append(p.acceptedScalar[:0], p.x.peerScal...)
	return &Keys{PMK: p.x.pmk, PMKID: p.x.pmkid, Group: p.g.ID, H2E: p.h2e}
}

// String keeps the password out of logs and errors: only whether there
// is an identifier and a peer shows.
func (p Password) String() string {
	s := "password(secret"
	if len(p.Identifier) > 0 {
		s += ", id=" + string(p.Identifier)
	}
	if !p.AnyPeer {
		s += ", mac=" + macString(p.Peer)
	}
	return s + ")"
}

// String keeps the PMK out of logs: group, method and PMKID (which goes
// over the air anyway).
func (k Keys) String() string {
	m := "hunting-and-pecking"
	if k.H2E {
		m = "hash-to-element"
	}
	return "sae keys(group " + strconv.Itoa(int(k.Group)) + ", " + m + ", pmkid " + hex.EncodeToString(k.PMKID[:]) + ")"
}

func macString(m MAC) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 0, 17)
	for i, o := range m {
		if i > 0 {
			b = append(b, ':')
		}
		b = append(b, digits[o>>4], digits[o&15])
	}
	return string(b)
}
