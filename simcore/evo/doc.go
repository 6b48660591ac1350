// Package evo is the paper's evolutionary job-to-cluster allocator (EVO,
// SPEC §11) and mct-all (pure MCT over every schedulable job), allocators
// that re-decide the cluster of every job of Js at every operation. They
// plug into simcore's list scheduler through the allocation seam alone
// (simcore.Allocation: ranking order, what-if planners, the Jn state, the
// operation log) and register themselves on a simcore.Registry (Register),
// as hydra does.
//
// It may import simcore and internal/...; simcore must not import it
// (internal/archtest).
package evo
