// kubernetes#30872, "Fix deadlock possibility in federated informer" (2016),
// written from the PR's description: on cluster add, the sub-informer locks and
// tries to add the cluster to the federated informer; when someone checks whether
// everything is in sync, the federated informer is locked and then the
// sub-informer is inspected, which needs its lock. Two locks, taken in opposite
// orders.
package main

import "sync"

// fixed = 1: ClustersSynced no longer takes the federated informer's lock (the
// cluster informer is set once, in the constructor): at most one lock at a time.
const fixed = 0

type clusterInformer struct {
	sync.Mutex
	synced bool
}

type federatedInformer struct {
	sync.Mutex
	clusters        map[string]bool
	clusterInformer *clusterInformer
}

// The sub-informer's add handler runs under the sub-informer's lock.
func (ci *clusterInformer) onAdd(f *federatedInformer, name string) {
	ci.Lock()
	defer ci.Unlock()
	f.addCluster(name)
}

func (f *federatedInformer) addCluster(name string) {
	f.Lock()
	defer f.Unlock()
	f.clusters[name] = true
}

func (ci *clusterInformer) HasSynced() bool {
	ci.Lock()
	defer ci.Unlock()
	return ci.synced
}

func (f *federatedInformer) ClustersSynced() bool {
	if fixed == 0 {
		// buggy: holds the federated informer's lock while the sub-informer takes its own.
		f.Lock()
		defer f.Unlock()
	}
	return f.clusterInformer.HasSynced()
}

func main() {
	ci := &clusterInformer{}
	f := &federatedInformer{clusters: map[string]bool{}, clusterInformer: ci}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // stalemate:name clusterAdd
		defer wg.Done()
		ci.onAdd(f, "cluster-1")
	}()
	go func() { // stalemate:name syncCheck
		defer wg.Done()
		f.ClustersSynced()
	}()
	wg.Wait()
}
