package ieee80211

import "encoding/binary"

// Views of management frame bodies (what Frame.Body returns). Each ParseX
// checks the fixed fields are present; elements are checked lazily by their
// iterator.

// Beacon is the body of a Beacon or Probe Response.
type Beacon []byte

// ProbeResp has the same body as Beacon.
type ProbeResp = Beacon

const beaconFixed = 12

// ParseBeacon checks a Beacon or Probe Response body.
func ParseBeacon(b []byte) (Beacon, error) {
	if len(b) < beaconFixed {
		return nil, ErrBody
	}
	return Beacon(b), nil
}

func (b Beacon) Timestamp() uint64  { return binary.LittleEndian.Uint64(b) }
func (b Beacon) Interval() uint16   { return binary.LittleEndian.Uint16(b[8:]) }
func (b Beacon) Capability() uint16 { return binary.LittleEndian.Uint16(b[10:]) }
func (b Beacon) Elements() Elements { return Elements(b[beaconFixed:]) }

// ProbeReq is the body of a Probe Request: elements only.
type ProbeReq []byte

// ParseProbeReq accepts any body; a probe request may even be empty.
func ParseProbeReq(b []byte) (ProbeReq, error) { return ProbeReq(b), nil }

func (p ProbeReq) Elements() Elements { return Elements(p) }

// Auth is the body of an Authentication frame.
type Auth []byte

const authFixed = 6

// ParseAuth checks an Authentication body.
func ParseAuth(b []byte) (Auth, error) {
	if len(b) < authFixed {
		return nil, ErrBody
	}
	return Auth(b), nil
}

func (a Auth) Algorithm() uint16   { return binary.LittleEndian.Uint16(a) }
func (a Auth) Transaction() uint16 { return binary.LittleEndian.Uint16(a[2:]) }
func (a Auth) Status() uint16      { return binary.LittleEndian.Uint16(a[4:]) }
func (a Auth) Elements() Elements  { return Elements(a[authFixed:]) }

// AssocReq is the body of an Association Request.
type AssocReq []byte

const assocReqFixed = 4

// ParseAssocReq checks an Association Request body.
func ParseAssocReq(b []byte) (AssocReq, error) {
	if len(b) < assocReqFixed {
		return nil, ErrBody
	}
	return AssocReq(b), nil
}

func (a AssocReq) Capability() uint16     { return binary.LittleEndian.Uint16(a) }
func (a AssocReq) ListenInterval() uint16 { return binary.LittleEndian.Uint16(a[2:]) }
func (a AssocReq) Elements() Elements     { return Elements(a[assocReqFixed:]) }

// ReassocReq is the body of a Reassociation Request.
type ReassocReq []byte

const reassocReqFixed = 10

// ParseReassocReq checks a Reassociation Request body.
func ParseReassocReq(b []byte) (ReassocReq, error) {
	if len(b) < reassocReqFixed {
		return nil, ErrBody
	}
	return ReassocReq(b), nil
}

func (r ReassocReq) Capability() uint16     { return binary.LittleEndian.Uint16(r) }
func (r ReassocReq) ListenInterval() uint16 { return binary.LittleEndian.Uint16(r[2:]) }
func (r ReassocReq) CurrentAP() MAC         { return MAC(r[4:10]) }
func (r ReassocReq) Elements() Elements     { return Elements(r[reassocReqFixed:]) }

// AssocResp is the body of an (Re)Association Response.
type AssocResp []byte

const assocRespFixed = 6

// ParseAssocResp checks an (Re)Association Response body.
func ParseAssocResp(b []byte) (AssocResp, error) {
	if len(b) < assocRespFixed {
		return nil, ErrBody
	}
	return AssocResp(b), nil
}

func (a AssocResp) Capability() uint16 { return binary.LittleEndian.Uint16(a) }
func (a AssocResp) Status() uint16     { return binary.LittleEndian.Uint16(a[2:]) }

// AID returns the association ID without its two always-set high bits.
func (a AssocResp) AID() uint16        { return binary.LittleEndian.Uint16(a[4:]) & AIDMask }
func (a AssocResp) Elements() Elements { return Elements(a[assocRespFixed:]) }

// Deauth is the body of a Deauthentication or Disassociation frame.
type Deauth []byte

// Disassoc has the same body as Deauth.
type Disassoc = Deauth

// ParseDeauth checks a Deauthentication or Disassociation body.
func ParseDeauth(b []byte) (Deauth, error) {
	if len(b) < 2 {
		return nil, ErrBody
	}
	return Deauth(b), nil
}

func (d Deauth) Reason() uint16 { return binary.LittleEndian.Uint16(d) }

// Action is the body of an Action or Action No Ack frame.
type Action []byte

// ParseAction checks that category and action code are there.
func ParseAction(b []byte) (Action, error) {
	if len(b) < 2 {
		return nil, ErrBody
	}
	return Action(b), nil
}

func (a Action) Category() uint8 { return a[0] }
func (a Action) Code() uint8     { return a[1] }

// Body returns what follows category and action code.
func (a Action) Body() []byte { return a[2:] }
