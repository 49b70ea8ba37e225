/// The main thread's run loop, under its RxSwift name.
public enum MainScheduler {
  public static var instance: RunLoopScheduler { RunLoopScheduler.main }
}
