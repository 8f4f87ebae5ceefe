import Foundation
import Testing
@testable import TileSync

@Suite("AWS Signature V4 and configuration")
struct AWSSignatureV4Tests {
    /// The examples of AWS's S3 documentation ("Signature Calculations for the Authorization Header").
    let example = AWSSignatureV4(credentials: S3Configuration.Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE",
                                                             secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
                                 region: "us-east-1", service: "s3")
    let exampleDate = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z

    @Test func getObjectExample() {
        let headers = example.authorization(method: "GET", path: "/test.txt", query: "",
                                            headers: ["Host": "examplebucket.s3.amazonaws.com", "Range": "bytes=0-9"],
                                            payloadHash: AWSSignatureV4.emptyPayloadHash, date: exampleDate)
        #expect(headers["Authorization"] == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
            + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(headers["x-amz-date"] == "20130524T000000Z")
    }

    @Test func putObjectExample() {
        let body = Data("Welcome to Amazon S3.".utf8)
        let payloadHash = SHA256Digest.hex(SHA256Digest.hash(body))
        #expect(payloadHash == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        let headers = example.authorization(
            method: "PUT", path: "/" + AWSSignatureV4.uriEncode("test$file.text", keepsSlashes: true), query: "",
            headers: ["Host": "examplebucket.s3.amazonaws.com", "Date": "Fri, 24 May 2013 00:00:00 GMT",
                      "x-amz-storage-class": "REDUCED_REDUNDANCY"],
            payloadHash: payloadHash, date: exampleDate)
        #expect(headers["Authorization"]?.hasSuffix(
            "SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,"
                + "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd") == true)
    }

    @Test func listObjectsExample() {
        let headers = example.authorization(method: "GET", path: "/", query: AWSSignatureV4.query([("prefix", "J"), ("max-keys", "2")]),
                                            headers: ["Host": "examplebucket.s3.amazonaws.com"],
                                            payloadHash: AWSSignatureV4.emptyPayloadHash, date: exampleDate)
        #expect(headers["Authorization"]?.hasSuffix("Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7") == true)
    }

    /// `get-vanilla-query-order-key-case` of AWS's Signature V4 test suite (service `service`).
    @Test func testSuiteQueryOrder() {
        let signer = AWSSignatureV4(credentials: S3Configuration.Credentials(accessKeyID: "AKIDEXAMPLE",
                                                                secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
                                    region: "us-east-1", service: "service")
        let headers = signer.authorization(method: "GET", path: "/", query: "Param2=value2&Param1=value1",
                                           headers: ["Host": "example.amazonaws.com"], payloadHash: AWSSignatureV4.emptyPayloadHash,
                                           date: Date(timeIntervalSince1970: 1_440_938_160))  // 20150830T123600Z
        let authorization = headers["Authorization"] ?? ""
        #expect(headers["x-amz-date"] == "20150830T123600Z")
        // The suite signs host;x-amz-date only; x-amz-content-sha256 is S3's, so compare the scope and header list shape.
        #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request,"))
    }

    @Test func uriEncoding() {
        #expect(AWSSignatureV4.uriEncode("a b/c~d_e.f-g+h=ü") == "a%20b%2Fc~d_e.f-g%2Bh%3D%C3%BC")
        #expect(AWSSignatureV4.uriEncode("tiles/3/2/1.pbf", keepsSlashes: true) == "tiles/3/2/1.pbf")
        #expect(AWSSignatureV4.query([("list-type", "2"), ("prefix", "a/b")]) == "list-type=2&prefix=a%2Fb")
    }

    @Test func credentialsNeverPrintTheSecret() {
        let credentials = S3Configuration.Credentials(accessKeyID: "AKID1", secretAccessKey: "very-secret", sessionToken: "token-secret")
        #expect(credentials.description == "access key AKID1")
        #expect(!"\(credentials)".contains("secret"))
    }

    @Test func configurationFromEnvironment() throws {
        let home = try TemporaryDirectory()
        let configuration = try S3Configuration.resolve(
            environment: ["AWS_ACCESS_KEY_ID": "AK", "AWS_SECRET_ACCESS_KEY": "SK", "AWS_SESSION_TOKEN": "ST",
                          "AWS_DEFAULT_REGION": "eu-west-3", "AWS_ENDPOINT_URL": "http://127.0.0.1:9000/"],
            home: home.path)
        #expect(configuration.credentials == S3Configuration.Credentials(accessKeyID: "AK", secretAccessKey: "SK", sessionToken: "ST"))
        #expect(configuration.region == "eu-west-3")
        #expect(configuration.endpoint.absoluteString == "http://127.0.0.1:9000")
        #expect(configuration.usesPathStyle)
        let explicit = try S3Configuration.resolve(endpoint: "https://minio.example:9443",
                                                   environment: ["AWS_ACCESS_KEY_ID": "AK", "AWS_SECRET_ACCESS_KEY": "SK",
                                                                 "AWS_REGION": "us-west-2", "AWS_DEFAULT_REGION": "eu-west-3"],
                                                   home: home.path)
        #expect(explicit.endpoint.absoluteString == "https://minio.example:9443")
        #expect(explicit.region == "us-west-2")
        let aws = try S3Configuration.resolve(environment: ["AWS_ACCESS_KEY_ID": "AK", "AWS_SECRET_ACCESS_KEY": "SK"], home: home.path)
        #expect(aws.endpoint.absoluteString == "https://s3.us-east-1.amazonaws.com")
        #expect(!aws.usesPathStyle)
    }

    @Test func configurationFromProfileFiles() throws {
        let home = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: home.file(".aws"), withIntermediateDirectories: true)
        try """
            [default]
            aws_access_key_id = DEFAULTKEY
            aws_secret_access_key = defaultsecret
            # a comment
            [publisher]
            aws_access_key_id=PUBKEY
            aws_secret_access_key = pub/secret=  ; trailing comment
            """.write(toFile: home.file(".aws/credentials"), atomically: true, encoding: .utf8)
        try """
            [default]
            region = ap-south-1
            [profile publisher]
            region = eu-central-1
            endpoint_url = http://127.0.0.1:8333
            s3 =
              addressing_style = path
            """.write(toFile: home.file(".aws/config"), atomically: true, encoding: .utf8)
        let standard = try S3Configuration.resolve(environment: [:], home: home.path)
        #expect(standard.credentials == S3Configuration.Credentials(accessKeyID: "DEFAULTKEY", secretAccessKey: "defaultsecret"))
        #expect(standard.region == "ap-south-1")
        let named = try S3Configuration.resolve(environment: ["AWS_PROFILE": "publisher"], home: home.path)
        #expect(named.credentials == S3Configuration.Credentials(accessKeyID: "PUBKEY", secretAccessKey: "pub/secret="))
        #expect(named.region == "eu-central-1")
        #expect(named.endpoint.absoluteString == "http://127.0.0.1:8333")
    }

    @Test func missingCredentialsIsOneLine() throws {
        let home = try TemporaryDirectory()
        #expect(throws: S3Error(message: "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give the profile "
                                + "nightly (AWS_PROFILE) aws_access_key_id and aws_secret_access_key in \(home.path)/.aws/credentials "
                                + "or \(home.path)/.aws/config")) {
            try S3Configuration.resolve(environment: ["AWS_PROFILE": "nightly", "AWS_SECRET_ACCESS_KEY": "half-given"], home: home.path)
        }
        #expect(throws: S3Error(message: "the endpoint 'ftp://host' is not an http:// or https:// URL")) {
            try S3Configuration.resolve(endpoint: "ftp://host", environment: ["AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "B"],
                                        home: home.path)
        }
    }
}
