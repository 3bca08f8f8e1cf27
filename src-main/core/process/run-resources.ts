/**
 * What a run holds, in one shape, and one store that lets it all go: the box spec's handles, the
 * run's private folders, its cgroup, its network proxy, its box places and placeholders. Each is
 * added as it is taken; the store lets go of them in reverse order, each once, and a release that
 * throws does not keep the others held (the first error is thrown once all are let go).
 */

/** Something a run holds until it lets go of it (VS Code's IDisposable): a handle, a folder, a cgroup, a proxy. */
export interface Disposable {
  dispose(): void | Promise<void>;
}

/** Everything one run holds, let go of in reverse order of taking, also when the run failed midway. */
export class RunResources {
  private readonly held: Disposable[] = [];

  /** Holds `resource` until dispose(); returns it, so taking and holding are one step. */
  add<T extends Disposable>(resource: T): T {
    this.held.push(resource);
    return resource;
  }

  /** Lets go of every resource, last taken first, each once; throws the first error once all are let go. */
  async dispose(): Promise<void> {
    let failed: { error: unknown } | null = null;
    // Popped before it is let go: a second dispose, or one racing this, never lets go of it again.
    for (let resource = this.held.pop(); resource !== undefined; resource = this.held.pop()) {
      try {
        await resource.dispose();
      } catch (error) {
        failed ??= { error };
      }
    }
    if (failed !== null) throw failed.error;
  }
}
