#if canImport(RxSwift)
#else
/// RxSwift is in the package only when RXSWIFT_PATH names a checkout (see Package.swift).
let rxSwiftCatalog: CatalogImpl? = nil
#endif
