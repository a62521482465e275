package integration

import "testing"

// TestDockerHost: a local engine's ports are published on, and reached at,
// the loopback interface; a remote engine's (DOCKER_HOST tcp://) at its host.
func TestDockerHost(t *testing.T) {
	for _, c := range []struct{ dockerHost, host, publish string }{
		{"", "127.0.0.1", "127.0.0.1::8000"},
		{"unix:///var/run/docker.sock", "127.0.0.1", "127.0.0.1::8000"},
		{"tcp://10.1.2.3:2376", "10.1.2.3", "8000"},
		{"tcp://[::1]:2375", "::1", "8000"},
	} {
		t.Setenv("DOCKER_HOST", c.dockerHost)
		if host, publish := dockerHost(); host != c.host || publish != c.publish {
			t.Errorf("DOCKER_HOST=%q: dockerHost() = %q, %q, want %q, %q", c.dockerHost, host, publish, c.host, c.publish)
		}
	}
}
