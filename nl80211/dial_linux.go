package nl80211

import (
	"github.com/mdlayher/genetlink"
	"github.com/mdlayher/netlink"
)

// Dial opens a generic netlink socket and resolves the nl80211 family. It asks
// for strict checking and extended acknowledgements and falls back to a plain
// socket with best-effort extended acknowledgements on kernels without them.
func Dial() (*Conn, error) {
	c, err := genetlink.Dial(&netlink.Config{Strict: true})
	if err != nil {
		c, err = genetlink.Dial(nil)
		if err != nil {
			return nil, wrap("dial", err)
		}
		_ = c.SetOption(netlink.ExtendedAcknowledge, true)
	}
	return NewConn(c)
}
