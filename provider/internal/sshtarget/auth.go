package sshtarget

import (
	"errors"
	"fmt"
	"net"
	"os"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// auth is what Dial offers the host: the private key, then the agent's
// keys. done releases the agent connection once the handshake is over.
func (c Config) auth() (methods []ssh.AuthMethod, done func(), err error) {
	var signers []ssh.Signer
	if c.PrivateKey != "" {
		s, err := ParsePrivateKey(c.PrivateKey, c.Passphrase)
		if err != nil {
			return nil, nil, err
		}
		signers = append(signers, s)
	}
	done = func() {}
	if c.Agent {
		sock := c.AgentSocket
		if sock == "" {
			sock = os.Getenv("SSH_AUTH_SOCK")
		}
		if sock == "" {
			if len(signers) == 0 {
				return nil, nil, fmt.Errorf("%w for %s: no private key, and SSH_AUTH_SOCK names no ssh-agent", ErrNoCredentials, c.Name())
			}
		} else {
			conn, err := net.Dial("unix", sock)
			if err != nil {
				return nil, nil, fmt.Errorf("%w for %s: ssh-agent at %s: %v", ErrNoCredentials, c.Name(), sock, err)
			}
			done = func() { conn.Close() }
			ag, err := agent.NewClient(conn).Signers()
			if err != nil {
				conn.Close()
				return nil, nil, fmt.Errorf("%w for %s: list ssh-agent keys: %v", ErrNoCredentials, c.Name(), err)
			}
			signers = append(signers, ag...)
		}
	}
	if len(signers) == 0 {
		return nil, nil, fmt.Errorf("%w for %s: give a private key (hosts[].private_key at apply, or the provider's ssh.private_key) or run ssh-agent", ErrNoCredentials, c.Name())
	}
	return []ssh.AuthMethod{ssh.PublicKeys(signers...)}, done, nil
}

// CheckPrivateKey reports whether s parses as a private key; an encrypted
// key passes (its passphrase is checked when it is used).
func CheckPrivateKey(s string) error {
	_, err := ssh.ParsePrivateKey([]byte(s))
	var pme *ssh.PassphraseMissingError
	if err == nil || errors.As(err, &pme) {
		return nil
	}
	return fmt.Errorf("%w: private_key: %v", ErrBadKey, err)
}
