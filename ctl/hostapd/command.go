package hostapd

import (
	"bytes"
	"errors"
	"strconv"
	"strings"

	"github.com/airq/airq/internal/ieee80211"
)

// Kind is what a command asks for.
type Kind uint8

// The commands, one per entry of the table in doc.go.
const (
	Unknown Kind = iota // answered UNKNOWN COMMAND
	Ping
	Relog
	Status
	STA
	STAFirst
	STANext
	Attach
	Detach
	Level
	Deauthenticate
	Disassociate
	SAQuery
	GetConfig
	Set
	Enable
	Disable
	Reload
	ReloadWPAPSK
	ChanSwitch
	// The testing commands (datatest.go).
	DataTestConfig
	DataTestTx
	GetPMK
)

var kindNames = [...]string{"UNKNOWN", "PING", "RELOG", "STATUS", "STA", "STA-FIRST", "STA-NEXT", "ATTACH", "DETACH",
	"LEVEL", "DEAUTHENTICATE", "DISASSOCIATE", "SA_QUERY", "GET_CONFIG", "SET", "ENABLE", "DISABLE", "RELOAD",
	"RELOAD_WPA_PSK", "CHAN_SWITCH", "DATA_TEST_CONFIG", "DATA_TEST_TX", "GET_PMK"}

// String is the command word.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// MaxRequest is the longest command hostapd reads (its buffer holds 4,096
// bytes with the terminating NUL); a longer datagram is refused whole.
const MaxRequest = 4095

// MaxReply is the longest reply hostapd_cli reads; replies are cut at a
// line's end to fit.
const MaxReply = 4095

// ReasonDefault is the reason code of DEAUTHENTICATE and DISASSOCIATE
// without reason=: 2, previous authentication no longer valid.
const ReasonDefault = ieee80211.ReasonPrevAuthNotValid

// Command is one parsed command; only the fields its Kind uses are set.
type Command struct {
	Kind   Kind
	Addr   ieee80211.MAC // STA, STA-NEXT, DEAUTHENTICATE, DISASSOCIATE, SA_QUERY
	Reason uint16        // DEAUTHENTICATE, DISASSOCIATE
	Key    string        // SET
	Value  string        // SET
	Level  int           // LEVEL
	// ProbeEvents is ATTACH's probe_rx_events: 1 or 0 sets it, -1 leaves
	// it as it was.
	ProbeEvents int
	// DATA_TEST_CONFIG: On, and the interface in Value (""; the wired
	// side); DATA_TEST_TX: Addr the destination, Src, the TOS in Reason
	// and the IP length in Level.
	On  bool
	Src ieee80211.MAC
}

// ErrFail is the error of a command whose arguments hostapd refuses: its
// reply is FAIL.
var ErrFail = errors.New("FAIL")

// exact are the commands matched whole, prefix those matched by their
// start; args those that take arguments after a space.
var (
	exact = map[string]Kind{"PING": Ping, "STATUS": Status, "STA-FIRST": STAFirst, "ATTACH": Attach,
		"DETACH": Detach, "GET_CONFIG": GetConfig, "RELOAD_WPA_PSK": ReloadWPAPSK}
	args = []struct {
		word string
		kind Kind
	}{{"STA ", STA}, {"STA-NEXT ", STANext}, {"ATTACH ", Attach}, {"LEVEL ", Level},
		{"DEAUTHENTICATE ", Deauthenticate}, {"DISASSOCIATE ", Disassociate}, {"SA_QUERY ", SAQuery},
		{"SET ", Set}, {"CHAN_SWITCH ", ChanSwitch}, {"DATA_TEST_CONFIG ", DataTestConfig},
		{"DATA_TEST_TX ", DataTestTx}, {"GET_PMK ", GetPMK}}
	// In hostapd's order: RELOAD_WPA_PSK is matched whole before RELOAD.
	prefix = []struct {
		word string
		kind Kind
	}{{"RELOG", Relog}, {"ENABLE", Enable}, {"RELOAD", Reload}, {"DISABLE", Disable}}
)

// requestText is a datagram's command as hostapd reads it: at most
// MaxRequest bytes, ended by a NUL as a C string is.
func requestText(b []byte) (string, bool) {
	if len(b) > MaxRequest {
		return "", false
	}
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b), true
}

// Parse reads one request datagram. An unknown command is Kind Unknown
// with no error; bad arguments are ErrFail. Like hostapd it reads the
// datagram as a C string: a NUL ends it.
func Parse(b []byte) (Command, error) {
	s, ok := requestText(b)
	if !ok {
		return Command{}, ErrFail
	}
	if k, ok := exact[s]; ok {
		return Command{Kind: k, ProbeEvents: -1}, nil
	}
	for _, a := range args {
		if rest, ok := strings.CutPrefix(s, a.word); ok {
			return parseArgs(a.kind, rest)
		}
	}
	for _, p := range prefix {
		if strings.HasPrefix(s, p.word) {
			return Command{Kind: p.kind}, nil
		}
	}
	return Command{}, nil
}

func parseArgs(k Kind, rest string) (Command, error) {
	c := Command{Kind: k, ProbeEvents: -1}
	var err error
	switch k {
	case Attach:
		c.ProbeEvents, err = parseAttach(rest)
	case Level:
		c.Level = atoi(rest)
	case Set:
		key, value, ok := strings.Cut(rest, " ")
		if !ok || key == "" {
			return Command{}, ErrFail
		}
		c.Key, c.Value = key, value
	case ChanSwitch:
	case DataTestConfig:
		return parseDataTestConfig(rest), nil
	case DataTestTx:
		return parseDataTestTx(rest)
	case STA:
		// hostapd answers FAIL to anything after the address (its
		// "eapol" dump exists only in debugging builds).
		if c.Addr, err = parseAddr(rest); err == nil && len(rest) > 17 {
			err = ErrFail
		}
	case Deauthenticate, Disassociate:
		c.Addr, c.Reason, err = parseLeave(rest)
	default: // STA-NEXT, SA_QUERY: an address and whatever follows it
		c.Addr, err = parseAddr(rest)
	}
	if err != nil {
		return Command{}, err
	}
	return c, nil
}

// parseAttach reads ATTACH's one option, probe_rx_events=0|1.
func parseAttach(rest string) (int, error) {
	_, v, ok := strings.Cut(rest, "=")
	if !ok {
		return 0, ErrFail
	}
	n := atoi(v)
	if n < 0 || n > 1 {
		return 0, ErrFail
	}
	if !strings.HasPrefix(rest, "probe_rx_events=") {
		return -1, nil // hostapd accepts other options and ignores them
	}
	return n, nil
}

// parseLeave reads DEAUTHENTICATE's and DISASSOCIATE's arguments. hostapd
// reads reason= with atoi; a reason that is not a reason code (0, or
// beyond 16 bits) is refused here rather than sent. Its testing options
// (test=, tx=0, p2p=) are refused: they are not for production.
func parseLeave(rest string) (ieee80211.MAC, uint16, error) {
	addr, err := parseAddr(rest)
	if err != nil {
		return addr, 0, err
	}
	for _, opt := range []string{" test=", " tx=0", " p2p="} {
		if strings.Contains(rest, opt) {
			return addr, 0, ErrFail
		}
	}
	reason := uint16(ReasonDefault)
	if _, v, ok := strings.Cut(rest, " reason="); ok {
		n := atoi(v)
		if n <= 0 || n > 0xffff {
			return addr, 0, ErrFail
		}
		reason = uint16(n)
	}
	return addr, reason, nil
}

// parseAddr is hwaddr_aton: six pairs of hex digits separated by ':' at
// the start of s; what follows is not its concern.
func parseAddr(s string) (ieee80211.MAC, error) {
	if len(s) < 17 || s[2] != ':' { // ParseMAC takes '-' too, and the same separator throughout
		return ieee80211.MAC{}, ErrFail
	}
	m, err := ieee80211.ParseMAC(s[:17])
	if err != nil {
		return m, ErrFail
	}
	return m, nil
}

// atoi is C's: leading blanks, a sign, the digits that follow; 0 if none.
// Values beyond 32 bits saturate, so that a huge number is refused, not
// wrapped.
func atoi(s string) int {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	end := 0
	if end < len(s) && (s[end] == '-' || s[end] == '+') {
		end++
	}
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, err := strconv.ParseInt(s[:end], 10, 32)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0
	}
	return int(n)
}
