import Foundation
import NowData
import Testing

/// The practices of seed 003 ("Codable en conditions réelles") applied through NowData's coders.
@Suite struct CodableGuideTests {
    /// §2 and §3: with `.convertFromSnakeCase` the strategy runs first, so an irregular key's raw value is the
    /// converted key (`avatarUrl`), not the JSON key (`avatar_url`).
    struct Profile: Codable, Equatable {
        var userId: Int
        var fullName: String
        var avatarURL: URL

        enum CodingKeys: String, CodingKey {
            case userId, fullName
            case avatarURL = "avatarUrl"
        }
    }

    let profileJSON = Data(#"{ "user_id": 42, "full_name": "Sarah", "avatar_url": "https://example.com/a.png" }"#.utf8)

    @Test func snakeCaseWithAnIrregularKey() throws {
        let profile = try Coder.default.jsonDecoder.decode(Profile.self, from: profileJSON)
        #expect(profile == Profile(userId: 42, fullName: "Sarah", avatarURL: URL(string: "https://example.com/a.png")!))
        #expect(
            String(decoding: try Coder.default.jsonEncoder.encode(profile), as: UTF8.self)
                == #"{"avatar_url":"https:\/\/example.com\/a.png","full_name":"Sarah","user_id":42}"#)
    }

    @Test func theGuidesRawValueFailsUnderTheStrategy() throws {
        struct GuideProfile: Decodable {
            let avatarURL: URL
            enum CodingKeys: String, CodingKey { case avatarURL = "avatar_url" }
        }
        let error = try #require(throws: DecodingError.self) {
            try Coder.default.jsonDecoder.decode(GuideProfile.self, from: profileJSON)
        }
        #expect(NowDataError.cannotDecodeModel(error).description == "cannot decode model: key 'avatar_url' not found")
    }

    /// §4: fractional-second ISO 8601 needs a custom strategy; a custom Coder carries it.
    @Test func fractionalSecondISO8601ThroughACustomCoder() throws {
        struct Event: Codable {
            let title: String
            let startsAt: Date
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let string = try container.decode(String.self)

            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]

            guard let date = formatter.date(from: string) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "Date ISO8601 invalide : \(string)"
                )
            }
            return date
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .custom { date, encoder in
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            var container = encoder.singleValueContainer()
            try container.encode(formatter.string(from: date))
        }
        let coder: Coder = .custom(encoder, decoder)

        let data = Data(#"{"result": [{"title": "Launch", "starts_at": "2026-06-28T14:30:00.123Z"}]}"#.utf8)
        let events = try coder.jsonDecoder.decode([Event].self, from: data, at: "result")
        #expect(abs(events[0].startsAt.timeIntervalSince1970 - 1_782_657_000.123) < 0.0005)
        #expect(String(decoding: try coder.jsonEncoder.encode(events[0]), as: UTF8.self).contains(#""starts_at":"2026-06-28T14:30:00.123Z""#))

        let bad = Data(#"{"result": [{"title": "Launch", "starts_at": "2026-06-28T14:30:00Z"}]}"#.utf8)
        let error = try #require(throws: DecodingError.self) {
            try coder.jsonDecoder.decode([Event].self, from: bad, at: "result")
        }
        #expect(
            NowDataError.cannotDecodeModel(error).description
                == "cannot decode model at result[0].startsAt: Date ISO8601 invalide : 2026-06-28T14:30:00Z")
    }

    /// §5: a default on a missing key needs `decodeIfPresent` in `init(from:)`.
    @Test func decodeIfPresentDefaults() throws {
        struct Settings: Decodable {
            let theme: String
            let notificationsEnabled: Bool

            enum CodingKeys: String, CodingKey {
                case theme, notificationsEnabled
            }

            init(from decoder: Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                theme = try c.decodeIfPresent(String.self, forKey: .theme) ?? "system"
                notificationsEnabled = try c.decodeIfPresent(Bool.self, forKey: .notificationsEnabled) ?? true
            }
        }
        let defaults = try Coder.default.jsonDecoder.decode(Settings.self, from: Data(#"{"result": {}}"#.utf8), at: "result")
        #expect(defaults.theme == "system")
        #expect(defaults.notificationsEnabled)
        let set = try Coder.default.jsonDecoder.decode(
            Settings.self, from: Data(#"{"theme": "dark", "notifications_enabled": false}"#.utf8))
        #expect(set.theme == "dark")
        #expect(!set.notificationsEnabled)
    }

    /// §6: `nestedContainer` flattens a nested object.
    @Test func nestedContainers() throws {
        struct Product: Decodable {
            let id: Int
            let name: String
            let amount: Int
            let currency: String

            enum CodingKeys: String, CodingKey {
                case id, name, price
            }
            enum PriceKeys: String, CodingKey {
                case amount, currency
            }

            init(from decoder: Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                id = try c.decode(Int.self, forKey: .id)
                name = try c.decode(String.self, forKey: .name)

                let price = try c.nestedContainer(keyedBy: PriceKeys.self, forKey: .price)
                amount = try price.decode(Int.self, forKey: .amount)
                currency = try price.decode(String.self, forKey: .currency)
            }
        }
        let data = Data(#"{ "id": 10, "name": "iPhone", "price": { "amount": 999, "currency": "EUR" } }"#.utf8)
        let product = try Coder.default.jsonDecoder.decode(Product.self, from: data)
        #expect(product.amount == 999)
        #expect(product.currency == "EUR")
        let missing = try #require(throws: DecodingError.self) {
            try Coder.default.jsonDecoder.decode(Product.self, from: Data(#"{ "id": 10, "name": "iPhone", "price": { "amount": 999 } }"#.utf8))
        }
        #expect(NowDataError.cannotDecodeModel(missing).description == "cannot decode model at price: key 'currency' not found")
    }

    /// The guide's exercise: snake_case, ISO 8601 and an optional summary with a default.
    @Test func exercise() throws {
        struct Article: Decodable {
            let articleId: Int
            let title: String
            let publishedAt: Date
            let summary: String

            enum CodingKeys: String, CodingKey { case articleId, title, publishedAt, summary }

            init(from decoder: Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                articleId = try c.decode(Int.self, forKey: .articleId)
                title = try c.decode(String.self, forKey: .title)
                publishedAt = try c.decode(Date.self, forKey: .publishedAt)
                summary = try c.decodeIfPresent(String.self, forKey: .summary) ?? "Pas de résumé"
            }
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        let article = try decoder.decode(
            Article.self, from: Data(#"{ "article_id": 7, "title": "SwiftUI", "published_at": "2026-06-28T09:00:00Z" }"#.utf8))
        #expect(article.articleId == 7)
        #expect(article.summary == "Pas de résumé")
        #expect(article.publishedAt == Date(timeIntervalSince1970: 1_782_637_200))
    }
}
